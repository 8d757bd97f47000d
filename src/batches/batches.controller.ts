import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { AppConfig } from '../config/app-config';
import { ApiError, orReject } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES, rowMessage, VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponses, ApiErrorResponsesWith } from '../http/api-error-responses';
import { CsvText, ROSTER_BODY } from '../http/decode-request-body';
import { isValidIdempotencyKey } from '../verification/idempotency-key';
import { batchAnswer, BatchView, readBatchesPage, readItemsPage } from './batch-view';
import { BatchesService } from './batches.service';
import { BatchDto, BatchListDto, CreateBatchFromItemsDto, CreateBatchFromNumbersDto } from './dto/batch.dto';
import { readRosterJson } from './roster';
import { readRosterCsv, writeResultsCsv } from './roster-csv';

// The VALIDATION_ERROR texts each route really sends, for the document's examples.
const { batchesLimit, cursor, itemsLimit, ...CREATE_TEXTS } = FEATURE_VALIDATION_MESSAGES;
const CREATE_BATCH_TEXTS = {
  notJson: VALIDATION_MESSAGES.notJson,
  tooDeep: VALIDATION_MESSAGES.tooDeep,
  idempotencyKey: VALIDATION_MESSAGES.idempotencyKey,
  ...CREATE_TEXTS,
  badRow: rowMessage(17, 'licenceNumber'),
};
const LIST_BATCHES_TEXTS = { batchesLimit, cursor };
const BATCH_ITEMS_TEXTS = { itemsLimit, cursor };

const ID_PARAM = { name: 'id', description: 'The batch id from POST /v1/batches', schema: { type: 'string', format: 'uuid' } };
const ITEM_PAGE_QUERIES = [
  { name: 'limit', required: false, description: 'Items per page, 1-1000 (default 1000)', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
  { name: 'cursor', required: false, description: "The previous page's nextCursor", schema: { type: 'string' } },
];
const CSV_DOWNLOAD = {
  status: 200,
  description: 'One row per item: UTF-8 with BOM, RFC 4180 quoting, formula-like cells prefixed with an apostrophe',
  content: { 'text/csv': { schema: { type: 'string' } } },
};

/** The answer's headers and status come from batchAnswer, the one mapping for batches. */
function sendBatch(reply: FastifyReply, view: BatchView, lookupsPerSecond: number): BatchView {
  const { httpStatus, headers } = batchAnswer(view, lookupsPerSecond);
  void reply.status(httpStatus).headers(headers);
  return view;
}

function sendCsv(reply: FastifyReply, batchId: string, csv: string): string {
  void reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="batch-${batchId}.csv"`);
  return csv;
}

@ApiTags('batches')
@Controller('v1/batches')
@UseGuards(ApiKeyGuard)
@ApiExtraModels(CreateBatchFromItemsDto, CreateBatchFromNumbersDto)
export class BatchesController {
  private readonly lookupsPerSecond: number;

  constructor(
    private readonly batches: BatchesService,
    config: AppConfig,
  ) {
    this.lookupsPerSecond = config.get('REGISTER_MAX_PER_SECOND');
  }

  @Post()
  @HttpCode(200)
  @RouteConfig({ requestBody: ROSTER_BODY })
  @ApiOperation({
    summary: 'Check a roster of 1 to 1,000 licence numbers',
    description:
      'JSON {"items":[{"licenceNumber","reference"}]} or {"licenceNumbers":[…]}, or a CSV body (Content-Type: text/csv) ' +
      'with a header row naming a licenceNumber (or licence_number, "Licence number") column and an optional reference ' +
      'column; `,` or `;` separated, BOM, CRLF and quoted fields accepted. Any bad row makes the whole request 400, ' +
      'naming the first one. The batch costs its distinct numbers not yet charged this month, all or nothing. Waits up ' +
      'to 5 s: 200 when every item is final, else 202 with Location and Retry-After.',
  })
  @ApiConsumes('application/json', 'text/csv')
  @ApiBody({
    schema: { oneOf: [{ $ref: getSchemaPath(CreateBatchFromItemsDto) }, { $ref: getSchemaPath(CreateBatchFromNumbersDto) }] },
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: '1-255 visible ASCII characters: the same key returns the same batch; with other rows it is 400',
  })
  @ApiOkResponse({ type: BatchDto, description: 'Every item is final' })
  @ApiResponse({
    status: 202,
    type: BatchDto,
    description: 'Still running: poll Location after Retry-After seconds',
    headers: {
      Location: { description: '/v1/batches/{id}', schema: { type: 'string' } },
      'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
    },
  })
  @ApiErrorResponsesWith(CREATE_BATCH_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'QUOTA_EXCEEDED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE')
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BatchView> {
    if (idempotencyKey !== undefined && !isValidIdempotencyKey(idempotencyKey)) {
      throw ApiError.validation(VALIDATION_MESSAGES.idempotencyKey);
    }
    const roster = orReject(body instanceof CsvText ? readRosterCsv(body.text) : readRosterJson(body));
    return sendBatch(reply, await this.batches.create(user, roster.entries, idempotencyKey), this.lookupsPerSecond);
  }

  @Get()
  @ApiOperation({ summary: "The caller's batches, newest first, without their items" })
  @ApiQuery({ name: 'limit', required: false, description: 'Batches per page, 1-100 (default 20)', schema: { type: 'integer', minimum: 1, maximum: 100 } })
  @ApiQuery({ name: 'cursor', required: false, description: "The previous page's nextCursor", schema: { type: 'string' } })
  @ApiOkResponse({ type: BatchListDto })
  @ApiErrorResponsesWith(LIST_BATCHES_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR')
  list(
    @CurrentUser() user: AuthenticatedUser,
    @Query('limit') limit: unknown,
    @Query('cursor') cursor: unknown,
  ): Promise<BatchListDto> {
    return this.batches.list(user.userId, orReject(readBatchesPage(limit, cursor)));
  }

  @Get(':id')
  @ApiOperation({
    summary: 'A batch with its counts and one page of items',
    description: 'With Accept: text/csv, the same download as results.csv.',
  })
  @ApiParam(ID_PARAM)
  @ApiQuery(ITEM_PAGE_QUERIES[0])
  @ApiQuery(ITEM_PAGE_QUERIES[1])
  @ApiExtraModels(BatchDto)
  @ApiResponse({
    status: 200,
    description: 'The batch, or with Accept: text/csv the same download as results.csv',
    content: { 'application/json': { schema: { $ref: getSchemaPath(BatchDto) } }, ...CSV_DOWNLOAD.content },
  })
  @ApiErrorResponsesWith(BATCH_ITEMS_TEXTS, 'VALIDATION_ERROR', 'UNAUTHORIZED', 'BATCH_NOT_FOUND', 'INTERNAL_ERROR')
  async get(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Query('limit') limit: unknown,
    @Query('cursor') cursor: unknown,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BatchView | string> {
    if (accept?.toLowerCase().includes('text/csv')) return this.results(user, id, reply);
    return this.batches.view(user.userId, id, orReject(readItemsPage(limit, cursor)));
  }

  @Get(':id/results.csv')
  @ApiOperation({ summary: "A batch's results as CSV, one row per item, in request order" })
  @ApiParam(ID_PARAM)
  @ApiResponse(CSV_DOWNLOAD)
  @ApiErrorResponses('UNAUTHORIZED', 'BATCH_NOT_FOUND', 'INTERNAL_ERROR')
  async results(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return sendCsv(reply, id, writeResultsCsv(await this.batches.resultRows(user.userId, id)));
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Look up again the items that ended in ERROR',
    description: 'Their numbers are charged again (all or nothing) and refunded if they fail again. Answers as POST /v1/batches.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: BatchDto, description: 'Every item is final' })
  @ApiResponse({ status: 202, type: BatchDto, description: 'Still running: poll Location after Retry-After seconds' })
  @ApiErrorResponses('UNAUTHORIZED', 'BATCH_NOT_FOUND', 'QUOTA_EXCEEDED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE')
  async retry(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BatchView> {
    return sendBatch(reply, await this.batches.retry(user, id), this.lookupsPerSecond);
  }
}
