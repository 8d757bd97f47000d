import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthenticatedUser, CurrentUser } from '../auth/authenticated-user';
import { VALIDATION_MESSAGES } from '../errors/error-codes';
import { ApiErrorResponsesWith } from '../http/api-error-responses';
import { IdempotencyKey } from '../validation/idempotency-key.pipe';
import { dtoValidationTexts } from '../validation/validation-texts';
import { AnswerFinisher } from '../verification/answer-finisher';
import { NameSearchDto, VerifyHolderDto } from './dto/holder-check-request.dto';
import { HolderCheckBody, holderCheckAnswer, SearchBody, searchAnswer } from './holder-answers';
import { ApiHolderCheckAnswers, ApiSearchAnswers } from './holder-answers.decorator';
import { HolderChecksService } from './holder-checks.service';
import { Requires } from '../auth/requires';

// The VALIDATION_ERROR texts each route really sends, for the document's examples: the body's, the DTO's, the header's.
const { notJson, invalidJson, idempotencyKey, idempotencyKeyReused } = VALIDATION_MESSAGES;
const REQUEST_TEXTS = { notJson, invalidJson, idempotencyKey, idempotencyKeyReused };

@ApiTags('holders')
@Controller('v1/licences')
@UseGuards(ApiKeyGuard)
@Requires('check')
export class HoldersController {
  constructor(
    private readonly holders: HolderChecksService,
    private readonly answers: AnswerFinisher,
  ) {}

  @Post('verify-holder')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'verifyHolder',
    summary: 'Verify a licence and whether it belongs to a person (name, and optionally date of birth)',
    description:
      'Answers what verify answers for the number, with the same statuses, wait, Idempotency-Key and quota unit, plus holderCheck. ' +
      "With a date of birth, one name search with the card's names and that date confirms it; it is not charged separately, and " +
      'its failure fails the check (502 or 503, refunded). The date of birth is never stored or logged in clear.',
  })
  @ApiBody({ type: VerifyHolderDto })
  @ApiHolderCheckAnswers()
  @ApiErrorResponsesWith(
    { ...dtoValidationTexts(VerifyHolderDto), ...REQUEST_TEXTS },
    'VALIDATION_ERROR',
    'UNAUTHORIZED',
    'QUOTA_EXCEEDED',
    'INTERNAL_ERROR',
    'PARSE_ERROR',
    'SERVICE_UNAVAILABLE',
  )
  async verifyHolder(
    @CurrentUser() user: AuthenticatedUser,
    @Body() claim: VerifyHolderDto,
    @IdempotencyKey() clientKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<HolderCheckBody> {
    const { verification, holderCheck } = await this.holders.verifyHolder(user, claim, clientKey, reply.request.id);
    const answer = await this.answers.finish(user, 'api', reply.request.id, claim.licenceNumber, verification, { claim, check: holderCheck });
    const { httpStatus, body } = holderCheckAnswer(answer, holderCheck);
    void reply.header('Idempotency-Key', verification.idempotencyKey).header('X-Verification-Source', verification.source);
    answerStatus(reply, httpStatus, verification.result === 'PENDING');
    return body;
  }

  @Post('search')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'searchLicences',
    summary: 'Search the register by surname, narrowed by first and middle name, date of birth, role and sector',
    description:
      'Answers every licence the register lists for the search, or 404 NOT_FOUND (a result), or 409 TOO_MANY_RESULTS (an error: ' +
      'refine the search). Waits up to 5 s, then 202 PENDING: retry with the same Idempotency-Key. Each distinct search (its ' +
      'normalised fields) counts once per month against the quota; repeats are free.',
  })
  @ApiBody({ type: NameSearchDto })
  @ApiSearchAnswers()
  @ApiErrorResponsesWith(
    { ...dtoValidationTexts(NameSearchDto), ...REQUEST_TEXTS },
    'VALIDATION_ERROR',
    'UNAUTHORIZED',
    'TOO_MANY_RESULTS',
    'QUOTA_EXCEEDED',
    'INTERNAL_ERROR',
    'PARSE_ERROR',
    'SERVICE_UNAVAILABLE',
  )
  async search(
    @CurrentUser() user: AuthenticatedUser,
    @Body() search: NameSearchDto,
    @IdempotencyKey() clientKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SearchBody> {
    const searched = await this.holders.search(user, search, clientKey, reply.request.id);
    // The key goes out with a 409 too: the result is final and cached, and the key stays bound to the search.
    void reply.header('Idempotency-Key', searched.idempotencyKey);
    const { httpStatus, body } = searchAnswer(searched.result, searched.dateOfBirthApplied);
    answerStatus(reply, httpStatus, searched.result === 'PENDING');
    return body;
  }
}

function answerStatus(reply: FastifyReply, httpStatus: number, pending: boolean): void {
  void reply.status(httpStatus);
  if (pending) void reply.header('Retry-After', '1');
}
