import { NewestFirstCursor, PageCursor, PageLimit, PageSize, NEWEST_FIRST_CURSOR_MAX_LENGTH, readNewestFirstCursor } from '../../validation/paging';
import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { UnknownFieldMessage } from '../../validation/request-dto.decorators';
import { ITEMS_CURSOR_MAX_LENGTH, readItemsCursor } from '../batch-view';

const { itemsLimit, batchesLimit, cursor, batchesQuery } = FEATURE_VALIDATION_MESSAGES;

const ITEMS_PAGE: PageSize = { max: 1000, fallback: 1000, message: itemsLimit, noun: 'Items' };
const BATCHES_PAGE: PageSize = { max: 100, fallback: 20, message: batchesLimit, noun: 'Batches' };

/** GET /v1/batches/{id}: one page of the batch's items. */
@UnknownFieldMessage(batchesQuery)
export class BatchItemsQuery {
  @PageLimit(ITEMS_PAGE)
  limit: number = ITEMS_PAGE.fallback;

  @PageCursor(readItemsCursor, ITEMS_CURSOR_MAX_LENGTH, cursor)
  cursor?: number;
}

/** GET /v1/batches: one page of the caller's batches, newest first. */
@UnknownFieldMessage(batchesQuery)
export class BatchesQuery {
  @PageLimit(BATCHES_PAGE)
  limit: number = BATCHES_PAGE.fallback;

  @PageCursor(readNewestFirstCursor, NEWEST_FIRST_CURSOR_MAX_LENGTH, cursor)
  cursor?: NewestFirstCursor;
}
