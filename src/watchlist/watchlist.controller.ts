import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { readRosterJson } from '../batches/roster';
import { ApiError, orReject } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES, rowMessage, VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponses, ApiErrorResponsesWith } from '../http/api-error-responses';
import { JSON_ROSTER_BODY, RejectedBody } from '../http/decode-request-body';
import { WatchBatchAddDto, WatchBatchAddResultDto, WatchEntryDto, WatchlistPageDto, WatchRequestDto } from './dto/watchlist.dto';
import { WatchEntryView } from './watch-entry-view';
import { isLicenceNumber } from '../verification/verify-request';
import { readWatchBody, readWatchlistQuery } from './watch-request';
import { WatchlistService } from './watchlist.service';

// The VALIDATION_ERROR texts each route really sends, for the document's examples.
const { watchBody, watchReference, batchShape, batchSize, watchlistLimit, cursor, watchStatus, expiringWithinDays } = FEATURE_VALIDATION_MESSAGES;
const { licenceNumber, notJson, tooDeep } = VALIDATION_MESSAGES;
const WATCH_TEXTS = { licenceNumber, notJson, watchBody, watchReference };
const NUMBER_TEXTS = { licenceNumber };
const BATCH_ADD_TEXTS = { notJson, tooDeep, batchShape, batchSize, badRow: rowMessage(17, 'licenceNumber') };
const LIST_TEXTS = { watchlistLimit, cursor, watchStatus, expiringWithinDays };

const NUMBER_PARAM = { name: 'licenceNumber', description: 'The 16-digit licence number', schema: { type: 'string', pattern: '^[0-9]{16}$' } };

function requireLicenceNumber(licenceNumber: string): string {
  if (!isLicenceNumber(licenceNumber)) throw ApiError.validation(VALIDATION_MESSAGES.licenceNumber);
  return licenceNumber;
}

// Full paths on each route: the batch route is /v1/watchlist:batchAdd (a custom method, with a
// literal colon that Fastify's router takes as "::"), which no controller prefix can express.
@ApiTags('monitoring')
@Controller()
@UseGuards(ApiKeyGuard)
export class WatchlistController {
  constructor(private readonly watchlist: WatchlistService) {}

  @Put('v1/watchlist/:licenceNumber')
  @ApiOperation({
    summary: 'Watch a licence number',
    description:
      'Costs one unit of quota like a verification (free when the number was already verified or watched this month). ' +
      '201 when new to the list, 200 when already watched (the reference is updated).',
  })
  @ApiParam(NUMBER_PARAM)
  @ApiBody({ type: WatchRequestDto, required: false })
  @ApiResponse({ status: 201, type: WatchEntryDto, description: 'Added' })
  @ApiOkResponse({ type: WatchEntryDto, description: 'Already watched; reference updated' })
  @ApiErrorResponsesWith(WATCH_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'QUOTA_EXCEEDED', 'INTERNAL_ERROR')
  async watch(
    @CurrentUser() user: AuthenticatedUser,
    @Param('licenceNumber') licenceNumber: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WatchEntryView> {
    if (request.body instanceof RejectedBody) throw ApiError.validation(request.body.reason);
    const { reference } = orReject(readWatchBody(request.body));
    const { created, entry } = await this.watchlist.watch(user, requireLicenceNumber(licenceNumber), reference);
    void reply.status(created ? 201 : 200);
    return entry;
  }

  @Delete('v1/watchlist/:licenceNumber')
  @HttpCode(204)
  @ApiOperation({ summary: 'Stop watching a licence number' })
  @ApiParam(NUMBER_PARAM)
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrorResponsesWith(NUMBER_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'WATCH_NOT_FOUND', 'INTERNAL_ERROR')
  async unwatch(@CurrentUser() user: AuthenticatedUser, @Param('licenceNumber') licenceNumber: string): Promise<void> {
    await this.watchlist.unwatch(user.userId, requireLicenceNumber(licenceNumber));
  }

  @Post('v1/watchlist::batchAdd')
  @HttpCode(200)
  @RouteConfig({ requestBody: JSON_ROSTER_BODY })
  @ApiOperation({
    summary: 'Watch 1 to 1,000 licence numbers at once',
    description:
      'Every row is validated first (one bad row is 400 naming it, and nothing is added). The new numbers are charged ' +
      'all or nothing: 429 when they do not all fit the remaining quota, with nothing added.',
  })
  @ApiBody({ type: WatchBatchAddDto })
  @ApiOkResponse({ type: WatchBatchAddResultDto })
  @ApiErrorResponsesWith(BATCH_ADD_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'QUOTA_EXCEEDED', 'INTERNAL_ERROR')
  batchAdd(@CurrentUser() user: AuthenticatedUser, @Body() body: unknown): Promise<WatchBatchAddResultDto> {
    return this.watchlist.watchMany(user, orReject(readRosterJson(body)).entries);
  }

  @Get('v1/watchlist')
  @ApiOperation({ summary: "The caller's watchlist with the latest known result of each number, by licence number" })
  @ApiQuery({ name: 'limit', required: false, description: 'Entries per page, 1-1000 (default 100)', schema: { type: 'integer', minimum: 1, maximum: 1000 } })
  @ApiQuery({ name: 'cursor', required: false, description: "The previous page's nextCursor", schema: { type: 'string' } })
  @ApiQuery({
    name: 'status',
    required: false,
    description: "Only entries whose licence has this register status (Active, Revoked…, any case), or NOT_FOUND, TOO_MANY_RESULTS, UNCHECKED",
    schema: { type: 'string' },
  })
  @ApiQuery({
    name: 'expiringWithinDays',
    required: false,
    description: 'Only licences whose expiryDate is between today and this many days ahead',
    schema: { type: 'integer', minimum: 0, maximum: 3650 },
  })
  @ApiOkResponse({ type: WatchlistPageDto })
  @ApiErrorResponsesWith(LIST_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR')
  list(@CurrentUser() user: AuthenticatedUser, @Query() query: Record<string, unknown>): Promise<WatchlistPageDto> {
    return this.watchlist.list(user.userId, orReject(readWatchlistQuery(query)));
  }
}
