import { Injectable } from '@nestjs/common';
import type { NameSearch } from '@lvs/register';
import { AuthenticatedUser } from '../auth/authenticated-user';
import { AppConfig } from '../config/app-config';
import type { NameSearchResult } from '../lookups/lookup-outcome';
import { LookupService } from '../lookups/lookup.service';
import { answerResult, Verification, VerificationService } from '../verification/verification.service';
import { DateOfBirthChecks } from './date-of-birth-checks';
import { VerifyHolderDto } from './dto/holder-check-request.dto';
import { HolderCheck, holderCheck } from './holder-check';
import { NameSearchSubjects } from './name-search-subjects';

/** A name search's answer, and whether its date of birth reached the register (null: none was given). */
export type NameSearchAnswer = Verification<NameSearchResult> & { dateOfBirthApplied: boolean | null };

export interface HolderVerification {
  verification: Verification;
  holderCheck: HolderCheck | null;
}

/**
 * Holder checks and name searches. Both go through the verification protocol and the one lookup road: a name
 * search is a lookup of its own kind (NameSearchSubjects).
 */
@Injectable()
export class HolderChecksService {
  constructor(
    private readonly verifications: VerificationService,
    private readonly lookups: LookupService,
    private readonly subjects: NameSearchSubjects,
    private readonly dateOfBirthChecks: DateOfBirthChecks,
    private readonly config: AppConfig,
  ) {}

  /**
   * Verifies the number as verify does (same charge, same wait), then compares the claimed name with the card and,
   * given a date of birth, confirms it with one name search that is not charged by itself, within the user's
   * bound of dates for the number (past it, NOT_CHECKED). That search failing fails the check, and refunds the
   * number's charge if this check made it.
   */
  async verifyHolder(user: AuthenticatedUser, claim: VerifyHolderDto, clientKey: string | undefined, requestId: string): Promise<HolderVerification> {
    const deadline = Date.now() + this.config.get('VERIFY_TIMEOUT_MS');
    const { dateOfBirth } = claim;
    const verification = await this.verifications.verify(user, claim.licenceNumber, clientKey, requestId, {
      deadline,
      markCachedCharge: dateOfBirth === undefined,
    });
    const { result } = verification;
    if (result === 'PENDING' || result.status !== 'FOUND' || result.licence === null) return { verification, holderCheck: null };
    const card = result.licence;
    if (dateOfBirth === undefined || !(await this.dateOfBirthChecks.admit(user.userId, card.licenceNumber, dateOfBirth))) {
      if (dateOfBirth !== undefined && verification.newCharge) this.verifications.markChargedLater(verification.newCharge);
      return { verification, holderCheck: holderCheck(card, claim, null) };
    }

    const answer = await this.lookups.lookup<NameSearchResult>({
      subject: this.subjects.dateOfBirthSubject(card, dateOfBirth),
      user,
      kind: 'live',
      deadline,
      requestId,
      cache: 'use',
      payment: verification.newCharge,
    });
    const confirmation = answerResult(answer);
    const source = verification.source === 'cache' && confirmation.source === 'cache' ? 'cache' : 'register';
    if (confirmation.result === 'PENDING') return { verification: { ...verification, result: 'PENDING', source }, holderCheck: null };
    // The check is final: its charge can no longer be refunded.
    if (verification.newCharge) this.verifications.markChargedLater(verification.newCharge);
    return { verification: { ...verification, source }, holderCheck: holderCheck(card, claim, confirmation.result) };
  }

  /**
   * A search by name, charged once per distinct normalised search per user and month, cached like verifications.
   * A date of birth is applied within the user's bound of dates for the names searched; past it the search runs
   * without the date, so that its answer tells nothing of whether the date is right, and says so.
   */
  async search(user: AuthenticatedUser, search: NameSearch, clientKey: string | undefined, requestId: string): Promise<NameSearchAnswer> {
    const { dateOfBirth, ...withoutDate } = search;
    const dateOfBirthApplied = dateOfBirth === undefined ? null : await this.dateOfBirthChecks.admitForNames(user.userId, search, dateOfBirth);
    const asked = dateOfBirthApplied === false ? withoutDate : search;
    const verification = await this.verifications.answer<NameSearchResult>(user, this.subjects.subject(asked), clientKey, requestId);
    return { ...verification, dateOfBirthApplied };
  }
}
