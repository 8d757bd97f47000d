import { Injectable } from '@nestjs/common';
import { AuthenticatedUser } from '../auth/authenticated-user';
import type { RecordChannel } from '../verification-records/verification-record';
import { Metrics } from '../metrics/metrics';
import { AnsweredHolder, AnswerRecords } from '../verification-records/answer-records';
import { IdempotencyStore } from './idempotency-store';
import { verificationAnswer, VerificationBody } from './outcome-status';
import { VerificationOutcomes } from './verification-outcomes';
import type { Verification } from './verification.service';

export interface FinishedAnswer {
  httpStatus: number;
  body: VerificationBody;
}

/**
 * How every channel (the API's verify and verify-holder, the console) ends a verification, so that none can skip
 * a step: the record whose id the answer carries, the answer itself, and its counts in the metrics and in the
 * user's monthly outcomes.
 */
@Injectable()
export class AnswerFinisher {
  constructor(
    private readonly records: AnswerRecords,
    private readonly idempotency: IdempotencyStore,
    private readonly metrics: Metrics,
    private readonly outcomes: VerificationOutcomes,
  ) {}

  async finish(
    user: AuthenticatedUser,
    channel: Exclude<RecordChannel, 'batch'>,
    requestId: string,
    licenceNumber: string,
    verification: Verification,
    holder?: AnsweredHolder,
  ): Promise<FinishedAnswer> {
    const verificationId = await this.records.idOf(
      user,
      channel,
      requestId,
      licenceNumber,
      verification,
      this.idempotency.recordKey(user.userId, verification.idempotencyKey),
      holder,
    );
    const answer = verificationAnswer(verification.result, verificationId);
    this.metrics.countVerification(answer.body.status, verification.source);
    this.outcomes.count(user.userId, answer.body.status);
    return answer;
  }
}
