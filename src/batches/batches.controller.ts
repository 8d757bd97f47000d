import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { AppConfig } from '../config/app-config';
import { pageRequest } from '../validation/paging';
import { FEATURE_VALIDATION_MESSAGES, rowMessage, VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponses, ApiErrorResponsesWith } from '../http/api-error-responses';
import { ApiRequestContent } from '../http/api-request-content';
import { IdempotencyKey } from '../validation/idempotency-key.pipe';
import { ResourceIdPipe } from '../validation/resource-id.pipe';
import { dtoValidationTexts } from '../validation/validation-texts';
import { batchAnswer, BatchView } from './batch-view';
import { BatchesService } from './batches.service';
import { BatchDto, BatchListDto } from './dto/batch.dto';
import { BatchesQuery, BatchItemsQuery } from './dto/batch-query.dto';
import { RosterDto } from '../common/roster.dto';
import { rosterEntries } from '../common/roster';
import { CSV_ROSTER_BODY, writeResultsCsv } from './roster-csv';
import { Requires } from '../auth/requires';
import { UUID_SCHEMA } from '../validation/uuid';

// The VALIDATION_ERROR texts each route really sends, for the document's examples: the body's, the header's, the DTOs'.
const { notJson, invalidJson, tooDeep, idempotencyKey } = VALIDATION_MESSAGES;
const { batchIdempotencyKeyReused, batchContentType, batchTooLarge, csvEncoding, csvHeader } = FEATURE_VALIDATION_MESSAGES;
const CREATE_BATCH_TEXTS = {
  notJson,
  invalidJson,
  tooDeep,
  idempotencyKey,
  batchIdempotencyKeyReused,
  batchContentType,
  batchTooLarge,
  ...dtoValidationTexts(RosterDto),
  csvEncoding,
  csvHeader,
  badRow: rowMessage(17, 'licenceNumber'),
  badCsvRecord: rowMessage(3, 'csvRecord'),
};

/** POST /v1/batches takes a roster as JSON or as CSV, read into the same RosterDto. */

const CSV_ROSTER_EXAMPLE = 'licenceNumber,reference\r\n1011001544208079,guard-0042\r\n1888000000000000,guard-0043\r\n';

const BATCH_ID = new ResourceIdPipe('BATCH_NOT_FOUND');
const ID_PARAM = { name: 'id', description: 'The batch id from POST /v1/batches', schema: UUID_SCHEMA };
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
  void reply.header('Content-Type', 'text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="batch-${batchId}.csv"`);
  return csv;
}

@ApiTags('batches')
@Controller('v1/batches')
@UseGuards(ApiKeyGuard)
@Requires('read')
export class BatchesController {
  private readonly lookupsPerSecond: number;

  constructor(
    private readonly batches: BatchesService,
    config: AppConfig,
  ) {
    this.lookupsPerSecond = config.get('REGISTER_MAX_PER_SECOND');
  }

  @Post()
  @Requires('check')
  @HttpCode(200)
  @RouteConfig({ requestBody: CSV_ROSTER_BODY })
  @ApiOperation({
    operationId: 'createBatch',
    summary: 'Check a roster of 1 to 1,000 licence numbers',
    description:
      'JSON {"items":[{"licenceNumber","reference"}]} or {"licenceNumbers":[…]}, or a CSV body (Content-Type: text/csv) ' +
      'with a header row naming a licenceNumber (or licence_number, "Licence number") column and an optional reference ' +
      'column; `,` or `;` separated, BOM, CRLF and quoted fields accepted. Any bad row makes the whole request 400, ' +
      'naming the first one. The batch costs its distinct numbers not yet charged this month, all or nothing. Waits up ' +
      'to 5 s: 200 when every item is final, else 202 with Location and Retry-After.',
  })
  @ApiBody({ type: RosterDto, description: 'The roster, as JSON or as CSV' })
  @ApiRequestContent('text/csv', {
    schema: {
      type: 'string',
      // The body's cap is in bytes; a UTF-8 text never has more characters than bytes.
      maxLength: CSV_ROSTER_BODY.maxBytes,
      description:
        'A header row naming a licenceNumber (or licence_number, "Licence number") column and an optional reference ' +
        'column, then one row per licence number; `,` or `;` separated',
    },
    example: CSV_ROSTER_EXAMPLE,
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
    @Body() roster: RosterDto,
    @IdempotencyKey('The same key returns the same batch; with other rows it is 400.') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BatchView> {
    return sendBatch(reply, await this.batches.create(user, rosterEntries(roster), reply.request.id, idempotencyKey), this.lookupsPerSecond);
  }

  @Get()
  @ApiOperation({
    operationId: 'listBatches',
    summary: "The caller's batches, newest first, without their items",
    description: 'Pages through every batch the caller created (kept as long as the retention allows); pass nextCursor as cursor for the next page.',
  })
  @ApiOkResponse({ type: BatchListDto, description: 'One page of batches, newest first' })
  @ApiErrorResponsesWith(dtoValidationTexts(BatchesQuery), 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR')
  list(@CurrentUser() user: AuthenticatedUser, @Query() query: BatchesQuery): Promise<BatchListDto> {
    return this.batches.list(user, pageRequest(query));
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getBatch',
    summary: 'A batch with its counts and one page of items',
    description: 'With Accept: text/csv, the same download as results.csv.',
  })
  @ApiParam(ID_PARAM)
  @ApiExtraModels(BatchDto)
  @ApiResponse({
    status: 200,
    description: 'The batch, or with Accept: text/csv the same download as results.csv',
    content: { 'application/json': { schema: { $ref: getSchemaPath(BatchDto) } }, ...CSV_DOWNLOAD.content },
  })
  @ApiErrorResponsesWith(dtoValidationTexts(BatchItemsQuery), 'VALIDATION_ERROR', 'UNAUTHORIZED', 'BATCH_NOT_FOUND', 'INTERNAL_ERROR')
  async get(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', BATCH_ID) id: string,
    @Query() query: BatchItemsQuery,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BatchView | string> {
    if (accept?.toLowerCase().includes('text/csv')) return this.results(user, id, reply);
    return this.batches.view(user, id, pageRequest(query));
  }

  @Get(':id/results.csv')
  @ApiOperation({
    operationId: 'getBatchResultsCsv',
    summary: "A batch's results as CSV, one row per item, in request order",
    description:
      'Columns: reference, licenceNumber, result, errorCode, name, role, sector, expiryDate, licenceStatus, statusReason, ' +
      'checkedAt, nameCheck, dateOfBirthCheck, verificationId (empty until the row is final, and on ERROR). Items still PENDING are listed as such; download again once the batch is COMPLETED.',
  })
  @ApiParam(ID_PARAM)
  @ApiResponse(CSV_DOWNLOAD)
  @ApiErrorResponses('UNAUTHORIZED', 'BATCH_NOT_FOUND', 'INTERNAL_ERROR')
  async results(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', BATCH_ID) id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return sendCsv(reply, id, writeResultsCsv(await this.batches.resultRows(user.userId, id)));
  }

  @Post(':id/retry')
  @Requires('check')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'retryBatch',
    summary: 'Look up again the items that ended in ERROR',
    description: 'Their numbers are charged again (all or nothing) and refunded if they fail again. Answers as POST /v1/batches.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: BatchDto, description: 'Every item is final' })
  @ApiResponse({ status: 202, type: BatchDto, description: 'Still running: poll Location after Retry-After seconds' })
  @ApiErrorResponses('UNAUTHORIZED', 'BATCH_NOT_FOUND', 'QUOTA_EXCEEDED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE')
  async retry(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', BATCH_ID) id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BatchView> {
    return sendBatch(reply, await this.batches.retry(user, id), this.lookupsPerSecond);
  }
}
