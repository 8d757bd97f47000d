import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { NotEquals, ValidateIf } from 'class-validator';
import { QueryInteger } from './query-integer.decorator';
import { isUuid } from './uuid';

/** One page of a list: how many rows, and where the previous page ended (null: from the start). */
export interface PageRequest<Cursor> {
  limit: number;
  after: Cursor | null;
}

/** The page size of one list, as its route allows it. */
export interface PageSize {
  max: number;
  fallback: number;
  message: string;
  /** what the list holds, for the document: "Batches" */
  noun: string;
}

/** `limit`: an integer from 1 to the list's maximum; the property's initial value is the default. */
export function PageLimit({ max, fallback, message, noun }: PageSize): PropertyDecorator {
  return QueryInteger({ min: 1, max, message, fallback, description: `${noun} per page, 1-${max} (default ${fallback})` });
}

/**
 * The cursor of a list, decoded by `read` (null: not a cursor of this list); one longer than `maxLength`, which the
 * document states, or an undecodable one is refused with `message`. The property holds the decoded cursor.
 */
export function PageCursor<Cursor>(
  read: (text: string) => Cursor | null,
  maxLength: number,
  message: string,
  description = "The previous page's nextCursor",
): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' && value.length <= maxLength ? read(value) : null)),
    ValidateIf((_query: object, value: unknown) => value !== undefined),
    NotEquals(null, { message }),
    ApiPropertyOptional({ type: String, maxLength, description }),
  );
}

/** The page a validated query asks for. */
export function pageRequest<Cursor>({ limit, cursor }: { limit: number; cursor?: Cursor }): PageRequest<Cursor> {
  return { limit, after: cursor ?? null };
}

/** Where a page of a newest-first list ends: the last row shown, by its time (created, answered) and its id. */
export interface NewestFirstCursor {
  at: string;
  id: string;
}

/** Far more than writeNewestFirstCursor writes (about 90 characters): a time and a UUID, in base64url. */
export const NEWEST_FIRST_CURSOR_MAX_LENGTH = 200;

export function writeNewestFirstCursor(cursor: NewestFirstCursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url');
}

/** The `cursor` of a newest-first list (batches, verification records), as writeNewestFirstCursor wrote it. */
export function readNewestFirstCursor(text: string): NewestFirstCursor | null {
  if (text.length > NEWEST_FIRST_CURSOR_MAX_LENGTH) return null;
  const [at, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  const time = Date.parse(at);
  if (rest.length > 0 || id === undefined || !isUuid(id) || Number.isNaN(time)) return null;
  return { at: new Date(time).toISOString(), id };
}
