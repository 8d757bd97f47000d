import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponses, ApiErrorResponsesWith } from '../http/api-error-responses';
import { QuotaHistoryDto, QuotaHistoryQuery } from './dto/quota-history.dto';
import { RateLimitExempt } from '../http/rate-limit-docs';
import { QuotaUsageDto } from './dto/quota-usage.dto';
import { QuotaService } from './quota.service';
import { Requires } from '../auth/requires';

@ApiTags('quota')
@Controller('v1/quota')
@UseGuards(ApiKeyGuard)
@Requires('read')
export class QuotaController {
  constructor(private readonly quota: QuotaService) {}

  @Get('usage')
  @ApiOperation({
    operationId: 'getQuotaUsage',
    summary: "The caller's verification usage in the current monthly period",
    description:
      "Usage belongs to the user of the API key, shared by all of that user's keys. A period is a calendar month; " +
      'each distinct licence number verified in it counts once. quota and remaining are null for an unlimited plan.',
  })
  @ApiOkResponse({ type: QuotaUsageDto, description: 'The usage of the current period' })
  @ApiErrorResponses('UNAUTHORIZED', 'INTERNAL_ERROR')
  // The interface defines only 200, 401 and 500 here.
  @RateLimitExempt()
  usage(@CurrentUser() user: AuthenticatedUser): Promise<QuotaUsageDto> {
    return this.quota.usage(user);
  }

  @Get('history')
  @ApiOperation({
    operationId: 'getQuotaHistory',
    summary: "The caller's usage in each of the last months, the current one included",
    description: 'Oldest period first. quota is the plan as it is now (null for an unlimited plan): limits are not kept per period.',
  })
  @ApiOkResponse({ type: QuotaHistoryDto, description: 'One entry per period' })
  @ApiErrorResponsesWith(
    { historyMonths: FEATURE_VALIDATION_MESSAGES.historyMonths, historyQuery: FEATURE_VALIDATION_MESSAGES.historyQuery },
    'VALIDATION_ERROR',
    'UNAUTHORIZED',
    'INTERNAL_ERROR',
  )
  history(@CurrentUser() user: AuthenticatedUser, @Query() query: QuotaHistoryQuery): Promise<QuotaHistoryDto> {
    return this.quota.history(user, query.months);
  }
}
