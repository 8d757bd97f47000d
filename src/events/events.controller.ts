import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponsesWith } from '../http/api-error-responses';
import { EventFeedDto } from './dto/event.dto';
import { eventView, readFeedRequest } from './event-view';
import { EventsService } from './events.service';

// The VALIDATION_ERROR texts GET /v1/events really sends, for the document's examples.
const { eventsLimit, eventsAfter } = FEATURE_VALIDATION_MESSAGES;

@ApiTags('monitoring')
@Controller('v1/events')
@UseGuards(ApiKeyGuard)
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @ApiOperation({
    summary: "The caller's events in order, kept 30 days",
    description: 'For partners without a public endpoint, and to recover missed deliveries. Poll with after= set to the last nextCursor.',
  })
  @ApiQuery({ name: 'after', required: false, description: "A previous page's nextCursor (default: from the oldest)", schema: { type: 'string' } })
  @ApiQuery({ name: 'limit', required: false, description: 'Events per page, 1-1000 (default 100)', schema: { type: 'integer', minimum: 1, maximum: 1000 } })
  @ApiOkResponse({ type: EventFeedDto })
  @ApiErrorResponsesWith({ eventsLimit, eventsAfter }, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR')
  async feed(@CurrentUser() user: AuthenticatedUser, @Query('after') after: unknown, @Query('limit') limit: unknown): Promise<EventFeedDto> {
    const request = readFeedRequest(after, limit);
    if ('problem' in request) throw new ApiError('VALIDATION_ERROR', request.problem);
    const events = await this.events.feed(user.userId, request.after, request.limit);
    return { events: events.map(eventView), nextCursor: events.at(-1)?.seq ?? request.after };
  }
}
