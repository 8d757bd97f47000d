import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ActivityLog } from '../activity/activity-log';
import { ApiErrorResponsesWith } from '../http/api-error-responses';
import { pageRequest } from '../validation/paging';
import { dtoValidationTexts } from '../validation/validation-texts';
import { ApiKeyGuard } from './api-key.guard';
import { AuthenticatedUser, CurrentUser } from './authenticated-user';
import { ActivityListDto, ActivityQuery, activityFilters } from './dto/activity.dto';
import { Requires } from './requires';

/** The account's activity log (src/activity), for admin keys: who changed what, when and from where. */
@ApiTags('activity')
@Controller('v1/activity')
@UseGuards(ApiKeyGuard)
@Requires('audit')
export class ActivityController {
  constructor(private readonly log: ActivityLog) {}

  @Get()
  @ApiOperation({
    operationId: 'listActivity',
    summary: "The account's activity log, newest first",
    description:
      'Keys created and revoked, webhook endpoints created, deleted and rotated, watchlist imports, and the operator’s ' +
      'changes to the account. Each event carries the hash of the one before it, so that a changed or removed event ' +
      'shows. Filters combine; from is inclusive and to exclusive, by occurredAt. Pass nextCursor as cursor for the next page. Admin keys only.',
  })
  @ApiOkResponse({ type: ActivityListDto, description: 'One page of events, newest first' })
  @ApiErrorResponsesWith(dtoValidationTexts(ActivityQuery), 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR')
  list(@CurrentUser() user: AuthenticatedUser, @Query() query: ActivityQuery): Promise<ActivityListDto> {
    return this.log.list(user.userId, activityFilters(query), pageRequest(query));
  }
}
