import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { EvidenceRecorder } from './evidence-recorder';
import type { HolderCheckOutcome, RecordChannel } from './verification-record';
import { ApiError } from '../errors/api-error';
import { Charge, QuotaService } from '../quota/quota.service';
import { isRedisUnavailable } from '../errors/dependency-unavailable';
import { HolderDataProtection } from '../secrets/holder-data';
import type { AnsweredResult } from './verification-record';

/** The holder a verify-holder answer was asked about: which claim the answer is for, and what its check found. */
export interface AnsweredHolder {
  claim: { firstName: string; surname: string; dateOfBirth?: string };
  check: HolderCheckOutcome | null;
}

/** A verification as its record needs it (verification.service's Verification): its answer, and the charge it made. */
export interface AnswerToRecord {
  result: AnsweredResult | 'PENDING';
  source: 'cache' | 'register';
  idempotencyKey: string;
  /** the charge the request made, refunded when its record cannot be taken */
  newCharge: Charge | null;
}

/**
 * The verification id of a final answer (verify, verify-holder, the console's), recorded before the answer
 * leaves; null for PENDING, which is no answer yet. A replay of the same idempotency key, channel and question
 * (verify, or the same holder claim) that gives the same answer gets the id it got first; one that gives another
 * answer (a new lookup, a changed cache entry) gets a new id and record (EvidenceRecorder). An answer whose record Redis could not take is not
 * sent: it is SERVICE_UNAVAILABLE, with the charge this request made refunded (a client never pays for a 503), and a
 * retry with the same key answers it (and records it) then. The id is kept in the idempotency record of the request's
 * key (`recordKey`, which the verification module's IdempotencyStore names).
 */
@Injectable()
export class AnswerRecords {
  constructor(
    private readonly recorder: EvidenceRecorder,
    private readonly holderData: HolderDataProtection,
    private readonly quota: QuotaService,
  ) {}

  async idOf(
    user: AuthenticatedUser,
    channel: Exclude<RecordChannel, 'batch'>,
    requestId: string,
    licenceNumber: string,
    verification: AnswerToRecord,
    recordKey: string,
    holder?: AnsweredHolder,
  ): Promise<string | null> {
    const { result, source, idempotencyKey } = verification;
    if (result === 'PENDING') return null;
    const { claim } = holder ?? {};
    // The claim keyed, never in clear: the field names the question without showing the date of birth.
    const question = claim ? `holder:${this.holderData.digest(JSON.stringify([claim.firstName, claim.surname, claim.dateOfBirth ?? null]))}` : 'verify';
    const answer = {
      userId: user.userId,
      keyId: user.keyId,
      memberId: user.memberId ?? null,
      requestId,
      idempotencyKey,
      licenceNumber,
      channel,
      result,
      source,
    };
    const slot = { recordKey, field: `evidence:${channel}:${question}` };
    try {
      return await this.recorder.record(holder ? { ...answer, holderCheck: holder.check } : answer, slot);
    } catch (error) {
      if (verification.newCharge) await this.quota.refund(verification.newCharge);
      throw isRedisUnavailable(error) ? new ApiError('SERVICE_UNAVAILABLE') : error;
    }
  }
}
