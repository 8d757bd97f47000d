import { Injectable } from '@nestjs/common';
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

/** The caller's verification records: pages, one record, its receipt, the CSV export (for the API and the console). */
@Injectable()
export class VerificationRecordsService {
  constructor(
    private readonly repository: EvidenceRepository,
    private readonly signer: ReceiptSigner,
    private readonly clock: Clock,
  ) {}

  async list(userId: string, query: VerificationsQuery): Promise<{ verifications: VerificationRecord[]; nextCursor: string | null }> {
    const page = pageRequest(query);
    const rows = await this.repository.listPage(userId, recordFilters(query), page);
    const verifications = rows.slice(0, page.limit);
    const last = verifications.at(-1);
    const nextCursor = rows.length > page.limit && last ? writeNewestFirstCursor({ at: last.answeredAt, id: last.verificationId }) : null;
    return { verifications, nextCursor };
  }

  /** The user's record; another user's is VERIFICATION_NOT_FOUND, as an unknown one. */
  async get(userId: string, verificationId: string): Promise<VerificationRecord> {
    const record = await this.repository.findOwned(userId, verificationId);
    if (!record) throw new ApiError('VERIFICATION_NOT_FOUND');
    return record;
  }

  /** The user's record signed as a receipt (a compact JWS) by the service at `issuer`. */
  async receipt(userId: string, verificationId: string, issuer: string): Promise<string> {
    return this.signer.sign(await this.get(userId, verificationId), issuer, this.clock.now());
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
