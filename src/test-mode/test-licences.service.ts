import { Injectable } from '@nestjs/common';
import type { RegisterLicence } from '@lvs/register';
import { SandboxLicence, shownOnCard } from '@lvs/test-register';
import { Clock } from '../clock/clock';
import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { LookupService } from '../lookups/lookup.service';
import { WatchlistService } from '../watchlist/watchlist.service';
import { applySimulatedChange, SimulatedChange, successorLicence } from './simulated-change';

/** What the user's test register now answers for a number (TestLicenceDto). */
export interface TestLicenceView {
  status: 'FOUND' | 'NOT_FOUND' | 'TOO_MANY_RESULTS' | 'SERVICE_UNAVAILABLE' | 'PARSE_ERROR';
  licence: RegisterLicence | null;
}

const STATUS_OF = {
  not_found: 'NOT_FOUND',
  too_many_results: 'TOO_MANY_RESULTS',
  unavailable: 'SERVICE_UNAVAILABLE',
  unexpected_page: 'PARSE_ERROR',
} as const;

/**
 * Simulated changes of a test user's licences, kept by its test register (LookupService): each is that user's alone.
 * After one, the user's cached answers for the numbers are dropped, and its watched ones are due for a re-check at
 * once, so that the usual events follow within seconds.
 */
@Injectable()
export class TestLicencesService {
  constructor(
    private readonly lookups: LookupService,
    private readonly watchlist: WatchlistService,
    private readonly clock: Clock,
  ) {}

  async change(testUserId: string, licenceNumber: string, change: SimulatedChange): Promise<TestLicenceView> {
    const { successorLicenceNumber } = change;
    if (successorLicenceNumber === licenceNumber) throw ApiError.validation(FEATURE_VALIDATION_MESSAGES.simulateBody);
    const now = this.clock.now();
    const licence = applySimulatedChange(licenceNumber, await this.found(testUserId, licenceNumber), change, now);
    const written = [licence];
    if (successorLicenceNumber && !(await this.found(testUserId, successorLicenceNumber)))
      written.push(successorLicence(licence, successorLicenceNumber, now));
    await this.lookups.changeTestLicences(testUserId, written, now);
    await this.watchlist.recheckNow(
      testUserId,
      written.map((changed) => changed.licenceNumber),
    );
    return { status: 'FOUND', licence: shownOnCard(licence) };
  }

  /** Forgets the user's change of the number: it answers as the test register's own data says again. */
  async restore(testUserId: string, licenceNumber: string): Promise<TestLicenceView> {
    await this.lookups.restoreTestLicence(testUserId, licenceNumber);
    await this.watchlist.recheckNow(testUserId, [licenceNumber]);
    const answer = await this.lookups.testAnswer(testUserId, licenceNumber);
    return answer.kind === 'found' ? { status: 'FOUND', licence: shownOnCard(answer.licence) } : { status: STATUS_OF[answer.kind], licence: null };
  }

  private async found(testUserId: string, licenceNumber: string): Promise<SandboxLicence | null> {
    const answer = await this.lookups.testAnswer(testUserId, licenceNumber);
    return answer.kind === 'found' ? answer.licence : null;
  }
}
