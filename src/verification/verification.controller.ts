import { Body, Controller, Headers, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { ApiError } from '../errors/api-error';
import { VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponses } from '../http/api-error-responses';
import { Metrics } from '../metrics/metrics';
import { VerificationResultDto } from './dto/verification-result.dto';
import { VerifyLicenceDto } from './dto/verify-licence.dto';
import { isValidIdempotencyKey } from './idempotency-key';
import { verificationAnswer } from './outcome-status';
import { VerificationService } from './verification.service';

const ANSWER_HEADERS = {
  'Idempotency-Key': { description: 'The effective idempotency key: yours, or the one derived for you', schema: { type: 'string' } },
  'X-Verification-Source': { description: 'cache or register', schema: { type: 'string', enum: ['cache', 'register'] } },
};

@ApiTags('verification')
@Controller('v1/licences')
@UseGuards(ApiKeyGuard)
export class VerificationController {
  constructor(
    private readonly verifications: VerificationService,
    private readonly metrics: Metrics,
  ) {}

  @Post('verify')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify a licence by its 16-digit number',
    description:
      'Answers from the cache at once, or asks the register and waits up to 5 s. After that it answers 202 PENDING: ' +
      'retry the same request with the same Idempotency-Key after Retry-After seconds. Each licence number counts ' +
      'once per month against the quota; retries and repeats are free.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: '1-255 visible ASCII characters. Without it, the key is derived from your user and the number.',
  })
  @ApiResponse({ status: 200, description: 'FOUND', type: VerificationResultDto, headers: ANSWER_HEADERS })
  @ApiResponse({
    status: 202,
    description: 'PENDING: retry with the same Idempotency-Key',
    type: VerificationResultDto,
    headers: { ...ANSWER_HEADERS, 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
  })
  @ApiResponse({ status: 404, description: 'NOT_FOUND', type: VerificationResultDto, headers: ANSWER_HEADERS })
  @ApiResponse({ status: 409, description: 'TOO_MANY_RESULTS', type: VerificationResultDto, headers: ANSWER_HEADERS })
  @ApiErrorResponses('VALIDATION_ERROR', 'UNAUTHORIZED', 'QUOTA_EXCEEDED', 'INTERNAL_ERROR', 'PARSE_ERROR', 'SERVICE_UNAVAILABLE')
  async verify(
    @CurrentUser() user: AuthenticatedUser,
    @Body() request: VerifyLicenceDto,
    @Headers('idempotency-key') idempotencyKey: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VerificationResultDto> {
    if (idempotencyKey !== undefined && !isValidIdempotencyKey(idempotencyKey)) {
      throw ApiError.validation(VALIDATION_MESSAGES.idempotencyKey);
    }
    const verification = await this.verifications.verify(user, request.licenceNumber, idempotencyKey);
    const { httpStatus, body } = verificationAnswer(verification.result);
    this.metrics.countVerification(body.status, verification.source);
    void reply
      .status(httpStatus)
      .header('Idempotency-Key', verification.idempotencyKey)
      .header('X-Verification-Source', verification.source);
    if (verification.result === 'PENDING') void reply.header('Retry-After', '1');
    return body;
  }
}
