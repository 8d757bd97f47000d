import { Injectable } from '@nestjs/common';
import type { DataOwner } from '../auth/authenticated-user';
import type { KeyMode } from '../auth/key-mode';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { stringify } from 'csv-stringify';
import { DOWNLOAD_CSV } from '../common/csv-cells';
import { pipeline, Readable, Transform } from 'node:stream';
import { ApiError } from '../errors/api-error';
import { EvidenceRecorder } from './evidence-recorder';
import { EvidenceRepository } from './evidence.repository';
import { MembersService } from '../members/members.service';
import type { VerificationRecord } from './verification-record';
import { NewestFirstCursor, pageRequest, writeNewestFirstCursor } from '../validation/paging';
import { recordFilters, RecordsExportQuery, VerificationsQuery } from './dto/verifications-query.dto';
import { EXPORT_PACE_WINDOW_MS, readsTooSlowly } from './export-pace';
import { ExportPlaces } from './export-places';
import { ReceiptSigner } from './receipt-signer';
import { RECORD_CSV_COLUMNS, recordCsvCells } from './record-csv';

/** A record as GET /v1/verifications shows it: with the mode of the side it belongs to. */
export type RecordView = VerificationRecord & { mode: KeyMode };

/** Records an export reads per statement: a few hundred rows' memory, and no connection held between pages. */
const EXPORT_PAGE_SIZE = 500;

function recordView(record: VerificationRecord, mode: KeyMode): RecordView {
  return { ...record, mode };
}

/** The caller's verification records: pages, one record, its receipt, the CSV export (for the API and the console). */
@Injectable()
export class VerificationRecordsService {
  constructor(
    private readonly repository: EvidenceRepository,
    private readonly recorder: EvidenceRecorder,
    private readonly signer: ReceiptSigner,
    private readonly clock: Clock,
    private readonly exports: ExportPlaces,
    private readonly config: AppConfig,
    private readonly members: MembersService,
  ) {}

  async list({ userId, mode }: DataOwner, query: VerificationsQuery): Promise<{ verifications: RecordView[]; nextCursor: string | null }> {
    const page = pageRequest(query);
    const rows = await this.repository.listPage(userId, recordFilters(query), page);
    const shown = rows.slice(0, page.limit);
    const last = shown.at(-1);
    const nextCursor = rows.length > page.limit && last ? writeNewestFirstCursor({ at: last.answeredAt, id: last.verificationId }) : null;
    return { verifications: shown.map((record) => recordView(record, mode)), nextCursor };
  }

  /** The user's record; another user's is VERIFICATION_NOT_FOUND, as an unknown one. */
  async get({ userId, mode }: DataOwner, verificationId: string): Promise<RecordView> {
    // PostgreSQL, then the records the drain has not moved yet, then PostgreSQL again: it may have moved it between.
    const record =
      (await this.repository.findOwned(userId, verificationId)) ??
      (await this.recorder.findWaiting(userId, verificationId)) ??
      (await this.repository.findOwned(userId, verificationId));
    if (!record) throw new ApiError('VERIFICATION_NOT_FOUND');
    return recordView(record, mode);
  }

  /**
   * The user's record signed as a receipt (a compact JWS), its mode included: a test answer's receipt is signed by
   * the test key and can never pass for a live one.
   */
  async receipt(owner: DataOwner, verificationId: string): Promise<string> {
    const { mode, ...record } = await this.get(owner, verificationId);
    return this.signer.sign(record, mode, this.clock.now());
  }

  /**
   * The export as a CSV stream (BOM and CRLF, as the roster results), read from the database a page at a time as its
   * client takes it. It holds one of the user's export places until it ends, and is cut if its client reads slower
   * than EXPORT_MIN_BYTES_PER_SECOND.
   */
  async exportCsv(userId: string, query: RecordsExportQuery): Promise<Readable> {
    const place = await this.exports.take(userId);
    const filters = recordFilters(query);
    // The first page is read before answering, so that a database that cannot serve it answers 503, not a cut 200.
    // The account's members by name, read once: an export names at most the people of one account.
    const [first, memberNames] = await Promise.all([
      this.repository.periodPage(userId, filters, null, EXPORT_PAGE_SIZE),
      this.members.displayNames(userId),
    ]).catch(async (error: unknown) => {
      await this.exports.release(place);
      throw error;
    });
    const rows = Readable.from(this.periodRecords(userId, filters, first));
    const toCells = new Transform({
      objectMode: true,
      transform: (record: VerificationRecord, _encoding, done) => done(null, recordCsvCells(record, memberNames)),
    });
    const csv = stringify({ ...DOWNLOAD_CSV, header: true, columns: [...RECORD_CSV_COLUMNS] });
    let taken = 0;
    const counted = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        taken += chunk.length;
        done(null, chunk);
      },
    });
    const minPace = this.config.get('EXPORT_MIN_BYTES_PER_SECOND');
    const pace = setInterval(() => {
      if (readsTooSlowly(taken, EXPORT_PACE_WINDOW_MS, minPace)) counted.destroy();
      else void this.exports.renew(place).catch(() => undefined); // a renewal missed: the lease still runs a while
      taken = 0;
    }, EXPORT_PACE_WINDOW_MS);
    // An error mid-way (the client went away or was too slow, the database failed) ends the download short; the
    // pipeline closes every stream, and the place goes back however it ended.
    pipeline(rows, toCells, csv, counted, () => {
      clearInterval(pace);
      void this.exports.release(place).catch(() => undefined); // not released: it lapses with its lease
    });
    return counted;
  }

  /** The user's records of the period, oldest first, from its first page on, each next page read when the last is taken. */
  private async *periodRecords(
    userId: string,
    filters: ReturnType<typeof recordFilters>,
    first: VerificationRecord[],
  ): AsyncGenerator<VerificationRecord> {
    for (let page = first; ;) {
      yield* page;
      const last = page.at(-1);
      if (page.length < EXPORT_PAGE_SIZE || !last) return;
      const after: NewestFirstCursor = { at: last.answeredAt, id: last.verificationId };
      page = await this.repository.periodPage(userId, filters, after, EXPORT_PAGE_SIZE);
    }
  }
}
