import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponsesWith } from '../http/api-error-responses';
import { EventFeedDto } from './dto/event.dto';
import { EventsQuery } from './dto/events-query.dto';
import { eventView } from './event-view';
import { EventsService } from './events.service';
import { Requires } from '../auth/requires';

// The VALIDATION_ERROR texts GET /v1/events really sends, for the document's examples.
const { eventsLimit, eventsAfter, eventsQuery } = FEATURE_VALIDATION_MESSAGES;

@ApiTags('monitoring')
@Controller('v1/events')
@UseGuards(ApiKeyGuard)
@Requires('read')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listEvents',
    summary: "The caller's events in order, kept 30 days",
    description: 'For partners without a public endpoint, and to recover missed deliveries. Poll with after= set to the last nextCursor.',
  })
  @ApiOkResponse({ type: EventFeedDto, description: 'The events after the cursor, oldest first' })
  @ApiErrorResponsesWith({ eventsLimit, eventsAfter, eventsQuery }, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR')
  async feed(@CurrentUser() user: AuthenticatedUser, @Query() { after, limit }: EventsQuery): Promise<EventFeedDto> {
    const events = await this.events.feed(user.userId, after, limit);
    return { events: events.map((event) => eventView(event, user.mode)), nextCursor: events.at(-1)?.seq ?? after };
  }
}
