import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { ApiErrorResponses } from '../http/api-error-responses';
import { IdempotencyKey } from '../validation/idempotency-key.pipe';
import { VerifyLicenceDto } from './dto/verify-licence.dto';
import { AnswerFinisher } from './answer-finisher';
import { VerificationBody } from './outcome-status';
import { ApiVerificationAnswers } from './verification-answers.decorator';
import { VerificationService } from './verification.service';
import { Requires } from '../auth/requires';

@ApiTags('verification')
@Controller('v1/licences')
@UseGuards(ApiKeyGuard)
@Requires('check')
export class VerificationController {
  constructor(
    private readonly verifications: VerificationService,
    private readonly answers: AnswerFinisher,
  ) {}

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
  @ApiBody({ type: VerifyLicenceDto, description: 'The licence number to verify' })
  @ApiVerificationAnswers()
  @ApiErrorResponses('VALIDATION_ERROR', 'UNAUTHORIZED', 'QUOTA_EXCEEDED', 'INTERNAL_ERROR', 'PARSE_ERROR', 'SERVICE_UNAVAILABLE')
  async verify(
    @CurrentUser() user: AuthenticatedUser,
    @Body() { licenceNumber }: VerifyLicenceDto,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VerificationBody> {
    const verification = await this.verifications.verify(user, licenceNumber, idempotencyKey, reply.request.id);
    const { httpStatus, body } = await this.answers.finish(user, 'api', reply.request.id, licenceNumber, verification);
    void reply.status(httpStatus).header('Idempotency-Key', verification.idempotencyKey).header('X-Verification-Source', verification.source);
    if (verification.result === 'PENDING') void reply.header('Retry-After', '1');
    return body;
  }
}
