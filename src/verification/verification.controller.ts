import { applyDecorators, Body, Controller, Headers, HttpCode, Post, Res, Type, UseGuards } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { ApiError } from '../errors/api-error';
import { VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponses } from '../http/api-error-responses';
import {
  exampleVerificationAnswer,
  VerificationFoundDto,
  VerificationNotFoundDto,
  VerificationPendingDto,
  VerificationTooManyResultsDto,
} from './dto/verification-result.dto';
import { VerifyLicenceDto } from './dto/verify-licence.dto';
import { isValidIdempotencyKey } from './idempotency-key';
import { verificationAnswer, VerificationBody, VerificationStatus } from './outcome-status';
import { VerificationService } from './verification.service';

const ANSWER_HEADERS = {
  'Idempotency-Key': {
    required: true,
    description: 'The effective idempotency key: yours, or the one derived for you',
    schema: { type: 'string' },
  },
  'X-Verification-Source': {
    required: true,
    description: 'cache: a stored result answered; register: the register was asked for this verification',
    schema: { type: 'string', enum: ['cache', 'register'] },
  },
};

const RETRY_AFTER_HEADER = {
  'Retry-After': { required: true, description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
};

/** One documented answer per verification status: its own schema, its HTTP status and a real example. */
function ApiVerificationAnswer(
  status: VerificationStatus,
  type: Type,
  description: string,
  headers: Record<string, object> = ANSWER_HEADERS,
) {
  const { httpStatus, body } = exampleVerificationAnswer(status);
  return ApiResponse({ status: httpStatus, description, type, headers, example: body });
}

function ApiVerificationAnswers() {
  return applyDecorators(
    ApiVerificationAnswer('FOUND', VerificationFoundDto, 'FOUND: exactly one licence has the number'),
    ApiVerificationAnswer(
      'PENDING',
      VerificationPendingDto,
      'PENDING: the register has not answered within 5 s; retry the same request with the same Idempotency-Key',
      { ...ANSWER_HEADERS, ...RETRY_AFTER_HEADER },
    ),
    ApiVerificationAnswer('NOT_FOUND', VerificationNotFoundDto, 'NOT_FOUND: no licence has the number (a result, not an error)'),
    ApiVerificationAnswer(
      'TOO_MANY_RESULTS',
      VerificationTooManyResultsDto,
      'TOO_MANY_RESULTS: several licences match the number, a data-quality problem of the register (a result, not an error)',
    ),
  );
}

@ApiTags('verification')
@Controller('v1/licences')
@UseGuards(ApiKeyGuard)
export class VerificationController {
  constructor(private readonly verifications: VerificationService) {}

  @Post('verify')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'verifyLicence',
    summary: 'Verify a licence by its 16-digit number',
    description:
      'Answers from the cache at once, or asks the register and waits up to 5 s. After that it answers 202 PENDING: ' +
      'retry the same request with the same Idempotency-Key after Retry-After seconds. Each licence number counts ' +
      'once per month against the quota; retries and repeats are free. 404 NOT_FOUND and 409 TOO_MANY_RESULTS are ' +
      'results with the same body as 200, not errors.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: '1-255 visible ASCII characters. Without it, the key is derived from your user and the number.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  })
  @ApiBody({ type: VerifyLicenceDto, description: 'The licence number to verify' })
  @ApiVerificationAnswers()
  @ApiErrorResponses('VALIDATION_ERROR', 'UNAUTHORIZED', 'QUOTA_EXCEEDED', 'INTERNAL_ERROR', 'PARSE_ERROR', 'SERVICE_UNAVAILABLE')
  async verify(
    @CurrentUser() user: AuthenticatedUser,
    @Body() request: VerifyLicenceDto,
    @Headers('idempotency-key') idempotencyKey: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VerificationBody> {
    if (idempotencyKey !== undefined && !isValidIdempotencyKey(idempotencyKey)) {
      throw ApiError.validation(VALIDATION_MESSAGES.idempotencyKey);
    }
    const verification = await this.verifications.verify(user, request.licenceNumber, idempotencyKey);
    const { httpStatus, body } = verificationAnswer(verification.result);
    void reply
      .status(httpStatus)
      .header('Idempotency-Key', verification.idempotencyKey)
      .header('X-Verification-Source', verification.source);
    if (verification.result === 'PENDING') void reply.header('Retry-After', '1');
    return body;
  }
}
