import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsUUID, Matches, MaxLength } from 'class-validator';
import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { NewestFirstCursor, PageCursor, PageLimit, PageSize, NEWEST_FIRST_CURSOR_MAX_LENGTH, readNewestFirstCursor } from '../../validation/paging';
import { UnknownFieldMessage } from '../../validation/request-dto.decorators';
import { LICENCE_NUMBER_LENGTH, LICENCE_NUMBER_PATTERN } from '../../validation/licence-number';
import { ISO_INSTANT_MAX_LENGTH } from '../../validation/iso-instant';
import type { RecordFilters } from '../evidence.repository';

const {
  verificationsLimit,
  cursor,
  verificationsLicenceNumber,
  verificationsFrom,
  verificationsTo,
  verificationsStatus,
  verificationsChannel,
  verificationsMember,
} = FEATURE_VALIDATION_MESSAGES;

const RECORDS_PAGE: PageSize = { max: 1000, fallback: 100, message: verificationsLimit, noun: 'Records' };

/** The period of the history or the export, by answeredAt. */
export class RecordPeriodQuery {
  @IsOptional()
  @MaxLength(ISO_INSTANT_MAX_LENGTH, { message: verificationsFrom })
  @IsISO8601({ strict: true }, { message: verificationsFrom })
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    maxLength: ISO_INSTANT_MAX_LENGTH,
    description: 'Only records answered at or after this time',
  })
  from?: string;

  @IsOptional()
  @MaxLength(ISO_INSTANT_MAX_LENGTH, { message: verificationsTo })
  @IsISO8601({ strict: true }, { message: verificationsTo })
  @ApiPropertyOptional({ type: String, format: 'date-time', maxLength: ISO_INSTANT_MAX_LENGTH, description: 'Only records answered before this time' })
  to?: string;
}

/** GET /v1/verifications/export: the records of a period. */
@UnknownFieldMessage(FEATURE_VALIDATION_MESSAGES.exportQuery)
export class RecordsExportQuery extends RecordPeriodQuery {}

/** GET /v1/verifications: one page of the caller's records, newest first. */
@UnknownFieldMessage(FEATURE_VALIDATION_MESSAGES.verificationsQuery)
export class VerificationsQuery extends RecordPeriodQuery {
  @PageLimit(RECORDS_PAGE)
  limit: number = RECORDS_PAGE.fallback;

  @PageCursor(readNewestFirstCursor, NEWEST_FIRST_CURSOR_MAX_LENGTH, cursor)
  cursor?: NewestFirstCursor;

  @IsOptional()
  @Matches(LICENCE_NUMBER_PATTERN, { message: verificationsLicenceNumber })
  @ApiPropertyOptional({
    type: String,
    pattern: LICENCE_NUMBER_PATTERN.source,
    maxLength: LICENCE_NUMBER_LENGTH,
    description: 'Only records of this licence number',
  })
  licenceNumber?: string;

  @IsOptional()
  @IsIn(['FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS'], { message: verificationsStatus })
  @ApiPropertyOptional({ enum: ['FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS'], description: 'Only records with this status' })
  status?: string;

  @IsOptional()
  @IsIn(['api', 'console', 'batch'], { message: verificationsChannel })
  @ApiPropertyOptional({ enum: ['api', 'console', 'batch'], description: 'Only records of this channel' })
  channel?: string;

  @IsOptional()
  @MaxLength(36, { message: verificationsMember })
  @IsUUID('all', { message: verificationsMember })
  @ApiPropertyOptional({ format: 'uuid', maxLength: 36, description: 'Only records made by this member in the console' })
  memberId?: string;
}

/** A validated time as an instant: a date alone is midnight UTC, whatever the database session's zone. */
function instant(text: string | undefined): string | null {
  return text === undefined ? null : new Date(text).toISOString();
}

/** What the repository filters by, from a validated query. */
export function recordFilters(query: RecordPeriodQuery & Partial<VerificationsQuery>): RecordFilters {
  return {
    licenceNumber: query.licenceNumber ?? null,
    from: instant(query.from),
    to: instant(query.to),
    status: query.status ?? null,
    channel: query.channel ?? null,
    memberId: query.memberId?.toLowerCase() ?? null,
  };
}
