import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { LookupOutcome } from '@lvs/register';
// The two modules by path: the package's index would load the page parser and the HTTP client, which only the worker uses.
import { nameSearchForm } from '@lvs/register/name-search-form';
import { RegisterParseError, RegisterUnavailableError } from '@lvs/register/register-errors';
import { loadSandboxData, SandboxData, SandboxLicence, searchSandboxByName, shownOnCard } from '@lvs/test-register';
import { DataSource } from 'typeorm';
import { worldOfUser } from './lookup-world';
import type { RegisterSurface } from './register-surface';
import { ResultCache } from './result-cache';
import { isCachedTestAnswer, mayHoldBackTestAnswer, TestAnswer, testAnswer, testAnswerDelayMs, TestWorld, testWorldLicences } from './test-world';

/**
 * The built-in sandbox register of test mode, one world per test user: the demo's data set, the magic numbers, and
 * the user's simulated changes (table test_licences, which src/test-mode changes through LookupService). It never
 * makes a network request.
 */
@Injectable()
export class TestRegisters {
  private sandbox: Promise<SandboxData> | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: ResultCache,
  ) {}

  /** Stores the user's changed licences (test_licences), then drops its cached answers for them. */
  async change(testUserId: string, licences: SandboxLicence[], changedAt: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO test_licences (user_id, licence_number, licence, changed_at)
       SELECT $1, licence->>'licenceNumber', licence, $3 FROM jsonb_array_elements($2::jsonb) AS licence
       ON CONFLICT (user_id, licence_number) DO UPDATE SET licence = excluded.licence, changed_at = excluded.changed_at`,
      [testUserId, JSON.stringify(licences), changedAt],
    );
    await this.cache.forget(
      worldOfUser(testUserId, 'test'),
      licences.map((licence) => licence.licenceNumber),
    );
  }

  /** Forgets the user's change of a number, then drops its cached answer for it. */
  async restore(testUserId: string, licenceNumber: string): Promise<void> {
    await this.dataSource.query('DELETE FROM test_licences WHERE user_id = $1 AND licence_number = $2', [testUserId, licenceNumber]);
    await this.cache.forget(worldOfUser(testUserId, 'test'), [licenceNumber]);
  }

  /**
   * The test register of one test user, as its lookup jobs see it: it reads no pages and records nothing (no metrics,
   * breaker, outage log or page shapes: it is no register traffic). Its failures are its answer, every time: retrying
   * them would only delay it. Its slow numbers answer a while after their job was queued, and are never cached, so
   * that every retry shows the 202 first.
   */
  of(testUserId: string): RegisterSurface {
    return {
      lookup: async (licenceNumber) => outcomeOf(await this.answer(testUserId, licenceNumber)),
      searchByName: async (search) => {
        const world = await this.world(testUserId);
        const found = searchSandboxByName(nameSearchForm(search), testWorldLicences(world), world.sandbox.tooManySurnames);
        if (found.kind === 'too_many_results') return found;
        return found.licences.length === 0 ? { kind: 'not_found' } : { kind: 'found', licences: found.licences.map(shownOnCard) };
      },
      answerAt: async (job, queuedAt) => (job.kind === 'name' ? queuedAt : queuedAt + (await this.delayMs(testUserId, job.licenceNumber))),
      record: () => undefined,
      retries: () => false,
      keeps: (job) => job.kind === 'name' || isCachedTestAnswer(job.licenceNumber),
    };
  }

  /** What the user's test register answers for the number. */
  async answer(testUserId: string, licenceNumber: string): Promise<TestAnswer> {
    return testAnswer(licenceNumber, await this.world(testUserId, licenceNumber));
  }

  /** How long after its lookup was queued the user's test register answers the number (the slow numbers). */
  private async delayMs(testUserId: string, licenceNumber: string): Promise<number> {
    // Every other number answers at once, changed or not: its job needs no read of the user's changes for this.
    if (!mayHoldBackTestAnswer(licenceNumber)) return 0;
    return testAnswerDelayMs(licenceNumber, await this.world(testUserId, licenceNumber));
  }

  /** The data set and the user's changed licences (only the one number's, when a lookup needs no more). */
  private async world(testUserId: string, licenceNumber?: string): Promise<TestWorld> {
    this.sandbox ??= loadSandboxData();
    const rows = await this.dataSource.query<{ licence: SandboxLicence }[]>(
      `SELECT licence FROM test_licences WHERE user_id = $1 AND ($2::text IS NULL OR licence_number = $2)`,
      [testUserId, licenceNumber ?? null],
    );
    return { sandbox: await this.sandbox, changed: new Map(rows.map(({ licence }) => [licence.licenceNumber, licence])) };
  }
}

/** A test answer as the register client would have read the register's page; its failures as the client's errors. */
function outcomeOf(answer: TestAnswer): LookupOutcome {
  switch (answer.kind) {
    case 'found':
      return { kind: 'found', licence: shownOnCard(answer.licence) };
    case 'not_found':
    case 'too_many_results':
      return { kind: answer.kind };
    case 'unavailable':
      throw new RegisterUnavailableError('Test register: the register is unavailable (magic number)');
    case 'unexpected_page':
      throw new RegisterParseError('Test register: the register answered a page that cannot be read (magic number)');
  }
}
