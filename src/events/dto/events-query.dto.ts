import { PageCursor, PageLimit, PageSize } from '../../validation/paging';
import { FEATURE_VALIDATION_MESSAGES } from '../../errors/error-codes';
import { UnknownFieldMessage } from '../../validation/request-dto.decorators';
import { FEED_CURSOR_MAX_LENGTH, readFeedCursor } from '../event-view';

const { eventsLimit, eventsAfter, eventsQuery } = FEATURE_VALIDATION_MESSAGES;

const EVENTS_PAGE: PageSize = { max: 1000, fallback: 100, message: eventsLimit, noun: 'Events' };

/** GET /v1/events: the events after a cursor. */
@UnknownFieldMessage(eventsQuery)
export class EventsQuery {
  @PageCursor(readFeedCursor, FEED_CURSOR_MAX_LENGTH, eventsAfter, "A previous page's nextCursor (default: from the oldest)")
  after: string = '0';

  @PageLimit(EVENTS_PAGE)
  limit: number = EVENTS_PAGE.fallback;
}
