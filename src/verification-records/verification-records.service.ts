import { Injectable } from '@nestjs/common';
import type { DataOwner } from '../auth/authenticated-user';
import type { KeyMode } from '../auth/key-mode';
import { Clock } from '../clock/clock';
import { stringify } from 'csv-stringify';
import { pipeline, Readable, Transform } from 'node:stream';
import { ApiError } from '../errors/api-error';
import { EvidenceRepository } from '../evidence/evidence.repository';
import type { VerificationRecord } from '../evidence/verification-record';
import { pageRequest, writeNewestFirstCursor } from '../validation/paging';
import { recordFilters, RecordsExportQuery, VerificationsQuery } from './dto/verifications-query.dto';
import { ReceiptSigner } from './receipt-signer';
import { RECORD_CSV_COLUMNS, recordCsvCells } from './record-csv';

/** A record as GET /v1/verifications shows it: with the mode of the side it belongs to. */
export type RecordView = VerificationRecord & { mode: KeyMode };

function recordView(record: VerificationRecord, mode: KeyMode): RecordView {
  return { ...record, mode };
}

/** The caller's verification records: pages, one record, its receipt, the CSV export (for the API and the console). */
@Injectable()
export class VerificationRecordsService {
  constructor(
    private readonly repository: EvidenceRepository,
    private readonly signer: ReceiptSigner,
    private readonly clock: Clock,
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
    const record = await this.repository.findOwned(userId, verificationId);
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

  /** The export as a CSV stream (BOM and CRLF, as the roster results), fed row by row from the database cursor. */
  async exportCsv(userId: string, query: RecordsExportQuery): Promise<Readable> {
    const rows = await this.repository.streamPeriod(userId, recordFilters(query));
    const toCells = new Transform({
      objectMode: true,
      transform: ({ record }: { record: VerificationRecord }, _encoding, done) => done(null, recordCsvCells(record)),
    });
    const csv = stringify({ bom: true, record_delimiter: 'windows', header: true, columns: [...RECORD_CSV_COLUMNS] });
    // An error mid-way (the client went away, the database failed) ends the download short; the pipeline closes every stream.
    pipeline(rows, toCells, csv, () => undefined);
    return csv;
  }
}
