import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { HolderDataProtection, UnopenableHolderDataError } from './holder-data';

const BATCH_SIZE = 500;

/** Counts of sealed dates of birth, in watch entries and batch items together. */
export interface ResealReport {
  resealed: number;
  alreadyCurrent: number;
  /** no key of the ring opens them: left as they are (the successor search then goes by name alone) */
  unopenable: number;
  /** rows whose date a partner replaced while this ran (the API sealed the new one with the first key) */
  changedMeanwhile: number;
}

/** A date of birth as stored, named by its row's primary key (two columns, as text, in key order). */
export interface SealedDate {
  key: [string, string];
  sealed: string;
}

/**
 * One kind of row that holds a sealed date of birth, served by the module that owns it: pages in primary-key order,
 * and a replacement that holds only while the date is still the one read.
 */
export interface SealedDateRows {
  /** the row's name that the seal is bound to (holderDataRow) */
  row(key: [string, string]): string;
  /** up to `limit` rows with a date, after `after` (null: from the first) */
  page(after: [string, string] | null, limit: number): Promise<SealedDate[]>;
  /** stores `resealed` in the caller's transaction if the row still holds `sealed`; false when someone replaced it */
  replace(manager: EntityManager, key: [string, string], resealed: string, sealed: string): Promise<boolean>;
}

/**
 * The SealedDateRows of a table with a date_of_birth_sealed column and a two-column primary key: its owner names the
 * table and columns, so that the statements of the two tables that hold dates stay one.
 */
export function sealedDateColumn(
  dataSource: DataSource,
  table: string,
  [first, second]: [string, string],
  row: (key: [string, string]) => string,
): SealedDateRows {
  return {
    row,
    async page(after, limit) {
      const rows = await dataSource.query<{ first: string; second: string; sealed: string }[]>(
        `SELECT ${first}::text AS first, ${second}::text AS second, date_of_birth_sealed AS sealed FROM ${table}
          WHERE date_of_birth_sealed IS NOT NULL AND ($1 OR (${first}, ${second}) > ($2, $3))
          ORDER BY ${first}, ${second} LIMIT $4`,
        [after === null, after?.[0] ?? null, after?.[1] ?? null, limit],
      );
      return rows.map((found) => ({ key: [found.first, found.second], sealed: found.sealed }));
    },
    async replace(manager, [firstValue, secondValue], resealed, sealed) {
      const [, updated] = await manager.query<[unknown, number]>(
        `UPDATE ${table} SET date_of_birth_sealed = $3 WHERE ${first} = $1 AND ${second} = $2 AND date_of_birth_sealed = $4`,
        [firstValue, secondValue, resealed, sealed],
      );
      return updated > 0;
    },
  };
}

/**
 * `admin reseal-holder-data`: moves every stored date of birth to the first key of HOLDER_DATA_KEYS, sealed in the
 * current format for its row, so that older keys can be dropped. Name searches are not stored: they live in the
 * lookup queue for seconds.
 */
@Injectable()
export class HolderDataReseal {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly holderData: HolderDataProtection,
  ) {}

  /** Pages of each kind of row in turn, each page in its own transaction; running it again changes nothing. */
  async resealAll(kinds: SealedDateRows[]): Promise<ResealReport> {
    const report: ResealReport = { resealed: 0, alreadyCurrent: 0, unopenable: 0, changedMeanwhile: 0 };
    for (const kind of kinds) await this.resealKind(kind, report);
    return report;
  }

  private async resealKind(kind: SealedDateRows, report: ResealReport): Promise<void> {
    let after: [string, string] | null = null;
    for (;;) {
      const rows = await kind.page(after, BATCH_SIZE);
      if (rows.length === 0) return;
      await this.dataSource.transaction(async (manager) => {
        for (const { key, sealed } of rows) {
          let resealed: string | null;
          try {
            resealed = this.holderData.resealed(sealed, kind.row(key));
          } catch (error) {
            if (!(error instanceof UnopenableHolderDataError)) throw error;
            report.unopenable += 1;
            continue;
          }
          if (resealed === null) {
            report.alreadyCurrent += 1;
            continue;
          }
          // Only if nobody replaced the date since it was read: the API seals with the first key anyway.
          report[(await kind.replace(manager, key, resealed, sealed)) ? 'resealed' : 'changedMeanwhile'] += 1;
        }
      });
      after = rows[rows.length - 1].key;
    }
  }
}
