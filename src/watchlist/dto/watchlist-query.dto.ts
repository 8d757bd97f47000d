import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { isLicenceNumber, LICENCE_NUMBER_LENGTH } from '../../validation/licence-number';
import { PageCursor, PageLimit, PageSize } from '../../validation/paging';
import { QueryInteger } from '../../validation/query-integer.decorator';
import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { UnknownFieldMessage } from '../../validation/request-dto.decorators';

const { watchlistLimit, cursor, watchStatus, expiringWithinDays, watchlistQuery: unknownQuery } = FEATURE_VALIDATION_MESSAGES;

const WATCHLIST_PAGE: PageSize = { max: 1000, fallback: 100, message: watchlistLimit, noun: 'Entries' };

/** The watchlist's cursor is the last licence number of the previous page. */
function readWatchlistCursor(text: string): string | null {
  return isLicenceNumber(text) ? text : null;
}

/** GET /v1/watchlist: one page, optionally only one status or licences near expiry. */
@UnknownFieldMessage(unknownQuery)
export class WatchlistQueryDto {
  @PageLimit(WATCHLIST_PAGE)
  limit: number = WATCHLIST_PAGE.fallback;

  @PageCursor(readWatchlistCursor, LICENCE_NUMBER_LENGTH, cursor)
  cursor?: string;

  @IsOptional()
  @Matches(/^[A-Za-z_ ]{1,40}$/, { message: watchStatus })
  @ApiPropertyOptional({
    type: String,
    pattern: '^[A-Za-z_ ]{1,40}$',
    maxLength: 40,
    description: 'Only entries whose licence has this register status (Active, Revoked…, any case), or NOT_FOUND, TOO_MANY_RESULTS, UNCHECKED',
  })
  status?: string;

  @QueryInteger({
    min: 0,
    max: 3650,
    message: expiringWithinDays,
    description: 'Only licences whose expiryDate is between today and this many days ahead',
  })
  expiringWithinDays?: number;
}

export interface WatchlistQuery {
  limit: number;
  /** the last licence number of the previous page */
  after: string | null;
  /** the register's status word (Active, Revoked…), NOT_FOUND, TOO_MANY_RESULTS or UNCHECKED, upper-cased */
  status: string | null;
  expiringWithinDays: number | null;
}

/** What the service filters by, from a validated query. */
export function watchlistQuery({ limit, cursor, status, expiringWithinDays }: WatchlistQueryDto): WatchlistQuery {
  return { limit, after: cursor ?? null, status: status?.toUpperCase() ?? null, expiringWithinDays: expiringWithinDays ?? null };
}
