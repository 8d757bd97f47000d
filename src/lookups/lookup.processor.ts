import { Injectable, Logger } from '@nestjs/common';
import {
  KNOWN_PAGE_SHAPES,
  NameSearch,
  pageSample,
  pageShape,
  RegisterClient,
  RegisterError,
  RegisterParseError,
  RegisterUnavailableError,
  RegisterUnreachableError,
} from '@lvs/register';
import { DelayedError, Job, UnrecoverableError, WorkerOptions } from 'bullmq';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { maskLicenceNumber } from '../logging/mask-licence-number';
import { RegisterOutageLog } from '../logging/register-outage-log';
import { LookupOutcomeLabel, Metrics } from '../metrics/metrics';
import { QueueWorker, workerConnection } from '../redis/queue-worker';
import { HolderDataProtection, holderDataRow } from '../secrets/holder-data';
import { RegisterBreaker } from './breaker/register-breaker';
import { toFinalResult, toNameSearchResult } from './lookup-outcome';
import { LOOKUP_FAILURE, LookupJobData, REGISTER_LOOKUP_QUEUE, subjectId, TEST_LOOKUP_QUEUE } from './lookup-jobs';
import type { LookupJobResult } from './lookup-outcome';
import { PageShapeStore } from './page-shape-store';
import { ResultCache } from './result-cache';
import { RegisterSurface, TestRegisters } from './test-register';
import { isCachedTestAnswer } from './test-world';

/**
 * A lookup worker's options from the settings. The register queue's limiter is global, shared by every worker through
 * Redis; the test queue has none, its lookups never reaching the register.
 */
function lookupWorkerOptions(config: AppConfig, limited: boolean): WorkerOptions {
  return {
    ...workerConnection(config),
    concurrency: config.get('WORKER_CONCURRENCY'),
    ...(limited ? { limiter: { max: config.get('REGISTER_MAX_PER_SECOND'), duration: 1000 } } : {}),
    lockDuration: config.get('WORKER_LOCK_DURATION_MS'),
    stalledInterval: config.get('WORKER_STALLED_INTERVAL_MS'),
    maxStalledCount: 2,
  };
}

/**
 * Runs register lookups in the worker process (provided only by LookupsWorkerModule). Only an
 * unavailable register is retried: a page we cannot read will not read better a second later,
 * and retrying would only load a public service.
 */
@Injectable()
export class LookupProcessor extends QueueWorker<LookupJobData, LookupJobResult> {
  private readonly logger = new Logger('LookupProcessor');
  /** An unreachable register is logged once per outage, not per attempt of every number. */
  private readonly outages = new RegisterOutageLog(this.logger);

  constructor(
    private readonly register: RegisterClient,
    private readonly cache: ResultCache,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly breaker: RegisterBreaker,
    private readonly holderData: HolderDataProtection,
    private readonly testRegisters: TestRegisters,
    private readonly pageShapes: PageShapeStore,
    config: AppConfig,
  ) {
    super(REGISTER_LOOKUP_QUEUE, lookupWorkerOptions(config, true), config.get('SHUTDOWN_GRACE_MS'));
  }

  async process(job: Job<LookupJobData, LookupJobResult>, token?: string): Promise<LookupJobResult> {
    const { data } = job;
    const { testUserId } = data;
    // A test user's lookup never reaches REGISTER_URL: its own test register answers, into its own cache.
    const register: RegisterSurface = testUserId ? this.testRegisters.of(testUserId) : this.register;
    const cacheKey = testUserId
      ? this.cache.testKey(testUserId, subjectId(data))
      : data.kind === 'name'
        ? this.cache.nameSearchKey(data.searchKey)
        : this.cache.key(data.licenceNumber);
    const store = (result: LookupJobResult) => this.cache.write(cacheKey, result);
    if (data.kind === 'name') {
      // A name search's log lines say "a name search" and nothing of the names or the date asked.
      return this.ask(job, 'Name search', {
        cached: () => this.cache.getByKey(cacheKey),
        register: async (askedAt, onPage) =>
          toNameSearchResult(
            await register.searchByName(JSON.parse(this.holderData.open(data.sealedSearch, holderDataRow.nameSearch(data.searchKey))) as NameSearch, {
              onPage,
            }),
            askedAt,
          ),
        store,
      });
    }
    const { licenceNumber, refresh } = data;
    if (testUserId) await this.holdBackSlowAnswer(job, testUserId, token);
    return this.ask(job, `Lookup of ${maskLicenceNumber(licenceNumber)}`, {
      cached: () => (refresh ? Promise.resolve(null) : this.cache.getByKey(cacheKey)),
      register: async (askedAt, onPage) => toFinalResult(await register.lookup(licenceNumber, { onPage }), askedAt),
      store: (result) => (testUserId && !isCachedTestAnswer(licenceNumber) ? Promise.resolve() : store(result)),
    });
  }

  /**
   * The test register's slow numbers answer a while after their job was queued. Until then the job waits delayed, not
   * in a worker's slot: it runs again when its time comes (its clients wait on it as on any job).
   */
  private async holdBackSlowAnswer(job: Job<LookupJobData, LookupJobResult>, testUserId: string, token: string | undefined): Promise<void> {
    if (job.data.kind === 'name') return;
    const answerAt = job.timestamp + (await this.testRegisters.delayMs(testUserId, job.data.licenceNumber));
    if (Date.now() >= answerAt) return;
    await job.moveToDelayed(answerAt, token);
    throw new DelayedError();
  }

  /**
   * One lookup of either kind: the cache first, then the register, its outcome measured, logged and cached, and the
   * shape of the register's page recorded, whether it parsed or not.
   */
  private async ask<Result extends LookupJobResult>(
    job: Job<LookupJobData, LookupJobResult>,
    subject: string,
    steps: {
      cached: () => Promise<Result | null>;
      register: (askedAt: Date, onPage: (page: string) => void) => Promise<Result>;
      store: (result: Result) => Promise<void>;
    },
  ): Promise<Result> {
    // The enqueuing request's id, on every line about this job (passed as a field: cheaper than a context).
    const logFields = { requestId: job.data.requestId };
    // A test lookup is no register traffic: it feeds neither the breaker, the outage log nor the register's metrics.
    const test = job.data.testUserId !== undefined;
    // A lookup enqueued just after another one finished: its answer is already here.
    // An unreachable cache is a miss (the Redis outage is logged once elsewhere): the register still answers.
    const cached = await steps.cached().catch(() => null);
    if (cached) return cached;

    const askedAt = this.clock.now();
    let page: string | null = null;
    const started = performance.now();
    const observe = (outcome: LookupOutcomeLabel) => {
      const seconds = (performance.now() - started) / 1000;
      if (!test) this.metrics.observeLookup(outcome, seconds);
      return seconds;
    };
    try {
      const result = await steps.register(askedAt, (read) => (page = read));
      if (!test) {
        this.recordForBreaker('answered');
        this.outages.answered();
      }
      const seconds = observe(result.status);
      this.logger.log(`${subject}: ${result.status} in ${Math.round(seconds * 1000)} ms`, logFields);
      if (!test) this.recordPageShape(page, true);
      // Not cached, the result still answers this job's clients; the next lookup asks again.
      await steps.store(result).catch(() => undefined);
      return result;
    } catch (error) {
      const failure =
        error instanceof RegisterUnavailableError
          ? LOOKUP_FAILURE.unavailable
          : error instanceof RegisterParseError
            ? LOOKUP_FAILURE.unexpectedPage
            : LOOKUP_FAILURE.internal;
      observe(failure);
      if (failure === LOOKUP_FAILURE.unavailable && !test) this.recordForBreaker('unavailable');
      if (!test) this.recordPageShape(page, false);
      if (error instanceof RegisterUnreachableError) {
        this.outages.unreachable(error);
      } else {
        if (error instanceof RegisterError && !test) this.outages.answered();
        const attempt = `attempt ${job.attemptsMade + 1}/${job.opts.attempts ?? 1}`;
        const detail =
          error instanceof RegisterError
            ? `${error.message}${error.excerpt === null ? '' : `: ${JSON.stringify(error.excerpt)}`}`
            : ((error as Error).stack ?? String(error));
        this.logger.warn(`${subject} failed (${attempt}): ${detail}`, logFields);
      }
      // The test register's failures are its answer, every time: retrying them would only delay it.
      if (failure === LOOKUP_FAILURE.unavailable && !test) throw new Error(failure, { cause: error });
      throw new UnrecoverableError(failure);
    }
  }

  /**
   * Counts the page's shape; the first page of a shape neither shipped nor seen before is kept as a sample (names and
   * dates of birth as lengths) and waits for the register watch's alert. Not awaited, as the breaker's bookkeeping.
   */
  private recordPageShape(page: string | null, parsed: boolean): void {
    if (page === null) return;
    const shape = pageShape(page);
    this.metrics.countPageShape(shape);
    this.pageShapes
      .record(shape, KNOWN_PAGE_SHAPES.has(shape), this.clock.now(), () => ({ parsed, page: pageSample(page) }))
      .then((isNew) => {
        if (!isNew) return;
        this.metrics.countNewPageShape();
        this.logger.warn(`Register page of a new shape ${shape} (${parsed ? 'parsed' : 'not parsed'}): kept as a sample, see npm run admin -- shape list`);
      })
      .catch((error: unknown) => this.logger.warn(`Recording a register page's shape failed: ${(error as Error).message}`));
  }

  /** Not awaited: the lookup's own outcome does not depend on the breaker's bookkeeping. */
  private recordForBreaker(outcome: 'answered' | 'unavailable'): void {
    this.breaker
      .record(outcome)
      .catch((error: unknown) => this.logger.warn(`Recording a lookup outcome for the breaker failed: ${(error as Error).message}`));
  }
}

/**
 * Drains the test queue (test users' lookups) in the worker process, without the register's limiter: the lookups are
 * LookupProcessor's, answered by the built-in test registers, so test traffic never takes a live lookup's turn.
 */
@Injectable()
export class TestLookupProcessor extends QueueWorker<LookupJobData, LookupJobResult> {
  constructor(
    private readonly lookups: LookupProcessor,
    config: AppConfig,
  ) {
    super(TEST_LOOKUP_QUEUE, lookupWorkerOptions(config, false), config.get('SHUTDOWN_GRACE_MS'));
  }

  process(job: Job<LookupJobData, LookupJobResult>, token?: string): Promise<LookupJobResult> {
    return this.lookups.process(job, token);
  }
}
