import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { HolderDataProtection, holderDataRow, UnopenableHolderDataError } from './holder-data';

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

/** One kind of row that holds a sealed date of birth: how to page through it and name a row. */
interface SealedTable {
  table: string;
  /** the primary key's columns, in order */
  key: [string, string];
  row: (key: [string, string]) => string;
}

const SEALED_TABLES: SealedTable[] = [
  { table: 'watch_entries', key: ['user_id', 'licence_number'], row: ([userId, number]) => holderDataRow.watchEntry(userId, number) },
  { table: 'batch_items', key: ['batch_id', 'index'], row: ([batchId, index]) => holderDataRow.batchItem(batchId, Number(index)) },
];

/**
 * `keys reseal-holder-data`: moves every stored date of birth to the first key of HOLDER_DATA_KEYS, sealed in the
 * current format for its row, so that older keys can be dropped. Name searches are not stored: they live in the
 * lookup queue for seconds.
 */
@Injectable()
export class HolderDataReseal {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly holderData: HolderDataProtection,
  ) {}

  /** Pages in primary-key order, each in its own transaction; running it again changes nothing. */
  async resealAll(): Promise<ResealReport> {
    const report: ResealReport = { resealed: 0, alreadyCurrent: 0, unopenable: 0, changedMeanwhile: 0 };
    for (const table of SEALED_TABLES) await this.resealTable(table, report);
    return report;
  }

  private async resealTable({ table, key: [first, second], row }: SealedTable, report: ResealReport): Promise<void> {
    let after: [string, string] | null = null;
    for (;;) {
      const rows: { first: string; second: string; sealed: string }[] = await this.dataSource.query(
        `SELECT ${first}::text AS first, ${second}::text AS second, date_of_birth_sealed AS sealed FROM ${table}
          WHERE date_of_birth_sealed IS NOT NULL AND ($1 OR (${first}, ${second}) > ($2, $3))
          ORDER BY ${first}, ${second} LIMIT $4`,
        [after === null, after?.[0] ?? null, after?.[1] ?? null, BATCH_SIZE],
      );
      if (rows.length === 0) return;
      await this.dataSource.transaction(async (manager) => {
        for (const { first: firstValue, second: secondValue, sealed } of rows) {
          let resealed: string | null;
          try {
            resealed = this.holderData.resealed(sealed, row([firstValue, secondValue]));
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
          const [, updated] = await manager.query<[unknown, number]>(
            `UPDATE ${table} SET date_of_birth_sealed = $3 WHERE ${first} = $1 AND ${second} = $2 AND date_of_birth_sealed = $4`,
            [firstValue, secondValue, resealed, sealed],
          );
          report[updated === 0 ? 'changedMeanwhile' : 'resealed'] += 1;
        }
      });
      const last = rows[rows.length - 1];
      after = [last.first, last.second];
    }
  }
}
