import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RegisterLicence } from '@lvs/register';
import { SandboxLicence, shownOnCard } from '@lvs/register-sandbox';
import { DataSource } from 'typeorm';
import { Clock } from '../clock/clock';
import { ApiError } from '../errors/api-error';
import { FEATURE_VALIDATION_MESSAGES } from '../errors/error-codes';
import { TestRegisters } from '../lookups/test-register';
import { WatchlistService } from '../watchlist/watchlist.service';
import { applySimulatedChange, SimulatedChange, successorLicence } from './simulated-change';

/** What the user's test register now answers for a number (TestLicenceDto). */
export interface TestLicenceView {
  status: 'FOUND' | 'NOT_FOUND' | 'TOO_MANY_RESULTS' | 'SERVICE_UNAVAILABLE' | 'PARSE_ERROR';
  licence: RegisterLicence | null;
}

const STATUS_OF = { not_found: 'NOT_FOUND', too_many_results: 'TOO_MANY_RESULTS', unavailable: 'SERVICE_UNAVAILABLE', unexpected_page: 'PARSE_ERROR' } as const;

/**
 * Simulated changes of a test user's licences (table test_licences): each is that user's alone. After one, the user's
 * cached answers for the numbers are dropped, and its watched ones are due for a re-check at once, so that the usual
 * events follow within seconds.
 */
@Injectable()
export class TestLicencesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly registers: TestRegisters,
    private readonly watchlist: WatchlistService,
    private readonly clock: Clock,
  ) {}

  async change(testUserId: string, licenceNumber: string, change: SimulatedChange): Promise<TestLicenceView> {
    const { successorLicenceNumber } = change;
    if (successorLicenceNumber === licenceNumber) throw ApiError.validation(FEATURE_VALIDATION_MESSAGES.simulateBody);
    const now = this.clock.now();
    const licence = applySimulatedChange(licenceNumber, await this.found(testUserId, licenceNumber), change, now);
    const written = [licence];
    if (successorLicenceNumber && !(await this.found(testUserId, successorLicenceNumber))) written.push(successorLicence(licence, successorLicenceNumber, now));
    await this.dataSource.query(
      `INSERT INTO test_licences (user_id, licence_number, licence, changed_at)
       SELECT $1, licence->>'licenceNumber', licence, $3 FROM jsonb_array_elements($2::jsonb) AS licence
       ON CONFLICT (user_id, licence_number) DO UPDATE SET licence = excluded.licence, changed_at = excluded.changed_at`,
      [testUserId, JSON.stringify(written), now],
    );
    await this.announce(testUserId, written.map((written) => written.licenceNumber));
    return { status: 'FOUND', licence: shownOnCard(licence) };
  }

  /** Forgets the user's change of the number: it answers as the test register's own data says again. */
  async restore(testUserId: string, licenceNumber: string): Promise<TestLicenceView> {
    await this.dataSource.query('DELETE FROM test_licences WHERE user_id = $1 AND licence_number = $2', [testUserId, licenceNumber]);
    await this.announce(testUserId, [licenceNumber]);
    const answer = await this.registers.answer(testUserId, licenceNumber);
    return answer.kind === 'found' ? { status: 'FOUND', licence: shownOnCard(answer.licence) } : { status: STATUS_OF[answer.kind], licence: null };
  }

  private async found(testUserId: string, licenceNumber: string): Promise<SandboxLicence | null> {
    const answer = await this.registers.answer(testUserId, licenceNumber);
    return answer.kind === 'found' ? answer.licence : null;
  }

  /** The user's next verification sees the change, and its watched numbers are re-checked at the next tick. */
  private async announce(testUserId: string, licenceNumbers: string[]): Promise<void> {
    await this.registers.forget(testUserId, licenceNumbers);
    await this.watchlist.recheckNow(testUserId, licenceNumbers);
  }
}
