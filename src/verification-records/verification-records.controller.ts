import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { ApiErrorResponses, ApiErrorResponsesWith } from '../http/api-error-responses';
import { ResourceIdPipe } from '../validation/resource-id.pipe';
import { dtoValidationTexts } from '../validation/validation-texts';
import { VerificationListDto, VerificationRecordDto } from './dto/verification-record.dto';
import { RecordsExportQuery, VerificationsQuery } from './dto/verifications-query.dto';
import { VerificationRecordsService } from './verification-records.service';
import { Requires } from '../auth/requires';
import { UUID_SCHEMA } from '../validation/uuid';

const RECORD_ID = new ResourceIdPipe('VERIFICATION_NOT_FOUND');
const ID_PARAM = { name: 'id', description: 'The verificationId of an answer', schema: UUID_SCHEMA };

@ApiTags('verifications')
@Controller('v1/verifications')
@UseGuards(ApiKeyGuard)
@Requires('read')
export class VerificationRecordsController {
  constructor(private readonly records: VerificationRecordsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listVerifications',
    summary: "The caller's verification records, newest first",
    description:
      'One record per final answer (verify, verify-holder, each roster row, the console), readable within 5 s of it. ' +
      'Filters combine; from is inclusive and to exclusive, by answeredAt. Pass nextCursor as cursor for the next page.',
  })
  @ApiOkResponse({ type: VerificationListDto, description: 'One page of records, newest first' })
  @ApiErrorResponsesWith(dtoValidationTexts(VerificationsQuery), 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR')
  list(@CurrentUser() user: AuthenticatedUser, @Query() query: VerificationsQuery): Promise<VerificationListDto> {
    return this.records.list(user, query);
  }

  @Get('export')
  @ApiOperation({
    operationId: 'exportVerifications',
    summary: "The caller's verification records of a period as CSV, oldest first",
    description:
      "A header row, then one row per record: the record's fields as columns, the licence's flattened as licence.<field>, " +
      "and beside memberId the member's display name (memberName, empty for a key). " +
      'UTF-8 with BOM, RFC 4180 quoting, formula-like cells prefixed with an apostrophe. Streamed: any period, in constant memory.',
  })
  @ApiResponse({ status: 200, description: 'The records as CSV', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiErrorResponsesWith(dtoValidationTexts(RecordsExportQuery), 'VALIDATION_ERROR', 'UNAUTHORIZED', 'INTERNAL_ERROR')
  async export(
    @CurrentUser() user: AuthenticatedUser,
    @Query() query: RecordsExportQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<NodeJS.ReadableStream> {
    const csv = await this.records.exportCsv(user.userId, query);
    void reply.header('Content-Type', 'text/csv; charset=utf-8').header('Content-Disposition', 'attachment; filename="verifications.csv"');
    return csv;
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getVerification', summary: 'One verification record', description: "Another user's id is 404, as an unknown one." })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: VerificationRecordDto, description: 'The record' })
  @ApiErrorResponses('UNAUTHORIZED', 'VERIFICATION_NOT_FOUND', 'INTERNAL_ERROR')
  get(@CurrentUser() user: AuthenticatedUser, @Param('id', RECORD_ID) id: string): Promise<VerificationRecordDto> {
    return this.records.get(user, id);
  }

  @Get(':id/receipt')
  @ApiOperation({
    operationId: 'getVerificationReceipt',
    summary: 'A signed receipt of a verification record',
    description:
      'A compact JWS (RFC 7515) signed with Ed25519 (alg EdDSA); its protected header names the key (kid, its RFC 7638 thumbprint, ' +
      'published at /.well-known/jwks.json) and typ lvs-receipt+jwt; its payload is the record without requestId and idempotencyKey ' +
      "(text the client chose), plus iss (PUBLIC_BASE_URL) and iat. A test key's receipt is typed lvs-test-receipt+jwt and signed by " +
      'a test key published at /.well-known/jwks-test.json only. Anyone can verify it offline, with the keys of the issuer they trust.',
  })
  @ApiParam(ID_PARAM)
  @ApiResponse({
    status: 200,
    description: 'The receipt',
    content: { 'application/jose': { schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' } } },
  })
  @ApiErrorResponses('UNAUTHORIZED', 'VERIFICATION_NOT_FOUND', 'INTERNAL_ERROR')
  async receipt(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', RECORD_ID) id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const receipt = await this.records.receipt(user, id);
    void reply.header('Content-Type', 'application/jose').header('Content-Disposition', `attachment; filename="receipt-${id}.jws"`);
    return receipt;
  }
}
