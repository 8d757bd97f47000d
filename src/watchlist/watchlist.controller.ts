import type { ActivityOrigin } from '../activity/activity-log';
import { KeyOrigin } from '../auth/activity-origin';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { RosterDto } from '../common/roster.dto';
import { rosterEntries } from '../common/roster';
import { rowMessage, VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponsesWith } from '../http/api-error-responses';
import { JSON_ROSTER_BODY } from '../http/decode-request-body';
import { dtoValidationTexts } from '../validation/validation-texts';
import { WatchBatchAddResultDto, WatchedNumberParams, WatchEntryDto, WatchlistPageDto, WatchRequestDto } from './dto/watchlist.dto';
import { watchlistQuery, WatchlistQueryDto } from './dto/watchlist-query.dto';
import { WatchEntryView } from './watch-entry-view';
import { WatchlistService } from './watchlist.service';
import { Requires } from '../auth/requires';

// The VALIDATION_ERROR texts each route really sends, for the document's examples: the path's, the body's, the DTOs'.
const { notJson, invalidJson, tooDeep } = VALIDATION_MESSAGES;
const NUMBER_TEXTS = dtoValidationTexts(WatchedNumberParams);
const WATCH_TEXTS = { ...NUMBER_TEXTS, notJson, invalidJson, ...dtoValidationTexts(WatchRequestDto) };
const BATCH_ADD_TEXTS = { notJson, invalidJson, tooDeep, ...dtoValidationTexts(RosterDto), badRow: rowMessage(17, 'licenceNumber') };

// Full paths on each route: the batch route is /v1/watchlist:batchAdd (a custom method, with a
// literal colon that Fastify's router takes as "::"), which no controller prefix can express.
@ApiTags('monitoring')
@Controller()
@UseGuards(ApiKeyGuard)
export class WatchlistController {
  constructor(private readonly watchlist: WatchlistService) {}

  @Put('v1/watchlist/:licenceNumber')
  @Requires('check')
  @ApiOperation({
    operationId: 'watchLicence',
    summary: 'Watch a licence number',
    description:
      'Costs one unit of quota like a verification (free when the number was already verified or watched this month). ' +
      '201 when new to the list, 200 when already watched (the reference is updated). With holder (and its date of birth), ' +
      'a licence that stops being Active is searched for a successor (licence.replaced); with followSuccessor, a successor ' +
      "found by name and date of birth is watched with the same reference. A new number past the watchlist's cap (10,000 " +
      'entries unless the operator set another) is 409 WATCHLIST_FULL, with nothing added, updated or charged.',
  })
  @ApiBody({ type: WatchRequestDto, required: false, description: 'Your own reference for the number, and its holder, if any' })
  @ApiResponse({ status: 201, type: WatchEntryDto, description: 'Added' })
  @ApiOkResponse({ type: WatchEntryDto, description: 'Already watched; reference updated' })
  @ApiErrorResponsesWith(WATCH_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'WATCHLIST_FULL', 'QUOTA_EXCEEDED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE')
  async watch(
    @CurrentUser() user: AuthenticatedUser,
    @Param() { licenceNumber }: WatchedNumberParams,
    @Body() { reference, holder, followSuccessor }: WatchRequestDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WatchEntryView> {
    const { created, entry } = await this.watchlist.watch(user, licenceNumber, reference || null, { holder, followSuccessor });
    void reply.status(created ? 201 : 200);
    return entry;
  }

  @Delete('v1/watchlist/:licenceNumber')
  @Requires('check')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'unwatchLicence',
    summary: 'Stop watching a licence number',
    description: 'The number is no longer re-checked and sends no more events; its charge this month stays.',
  })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrorResponsesWith(NUMBER_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'WATCH_NOT_FOUND', 'INTERNAL_ERROR')
  async unwatch(@CurrentUser() user: AuthenticatedUser, @Param() { licenceNumber }: WatchedNumberParams): Promise<void> {
    await this.watchlist.unwatch(user.userId, licenceNumber);
  }

  @Post('v1/watchlist::batchAdd')
  @Requires('check')
  @HttpCode(200)
  @RouteConfig({ requestBody: JSON_ROSTER_BODY })
  @ApiOperation({
    operationId: 'watchLicences',
    summary: 'Watch 1 to 1,000 licence numbers at once',
    description:
      'Every row is validated first (one bad row is 400 naming it, and nothing is added). The new numbers are charged ' +
      'all or nothing: 429 when they do not all fit the remaining quota, with nothing added. 409 WATCHLIST_FULL when the ' +
      'new numbers would take the watchlist past its cap, with nothing added, updated or charged.',
  })
  @ApiBody({ type: RosterDto, description: 'The numbers to watch, with optional references' })
  @ApiOkResponse({ type: WatchBatchAddResultDto, description: 'Every number is watched: how many were new and how many updated' })
  @ApiErrorResponsesWith(BATCH_ADD_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'WATCHLIST_FULL', 'QUOTA_EXCEEDED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE')
  batchAdd(@CurrentUser() user: AuthenticatedUser, @KeyOrigin() origin: ActivityOrigin, @Body() roster: RosterDto): Promise<WatchBatchAddResultDto> {
    return this.watchlist.watchMany(origin, user, rosterEntries(roster));
  }

  @Get('v1/watchlist')
  @Requires('read')
  @ApiOperation({
    operationId: 'listWatchlist',
    summary: "The caller's watchlist with the latest known result of each number, by licence number",
    description: 'Pages in licence number order; pass nextCursor as cursor for the next page. status and expiringWithinDays filter it.',
  })
  @ApiOkResponse({ type: WatchlistPageDto, description: 'One page of watched numbers' })
  @ApiErrorResponsesWith(dtoValidationTexts(WatchlistQueryDto), 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR')
  list(@CurrentUser() user: AuthenticatedUser, @Query() query: WatchlistQueryDto): Promise<WatchlistPageDto> {
    return this.watchlist.list(user, watchlistQuery(query));
  }
}
