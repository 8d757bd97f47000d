import { FactoryProvider, Injectable, Logger } from '@nestjs/common';
import { NameSearch, RegisterError, RegisterParseError, RegisterUnavailableError, RegisterUnreachableError } from '@lvs/register';
import { DelayedError, Job, UnrecoverableError, WorkerOptions } from 'bullmq';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { maskLicenceNumber } from '../logging/mask-licence-number';
import { QueueWorker, workerConnection } from '../redis/queue-worker';
import { HolderDataProtection, holderDataRow } from '../secrets/holder-data';
import { LiveRegister } from './live-register';
import { toFinalResult, toNameSearchResult } from './lookup-outcome';
import { LOOKUP_FAILURE, LookupJobData } from './lookup-jobs';
import type { LookupJobResult } from './lookup-outcome';
import { forWorld, WORLD_QUEUES, WorldQueue, worldOfJob } from './lookup-world';
import type { RegisterSurface } from './register-surface';
import { ResultCache } from './result-cache';
import { TestRegisters } from './test-register';

/**
 * A lookup worker's options from the settings. A paced queue's limiter (the register's) is global, shared by every
 * worker through Redis; the test queue has none, its lookups never reaching the register.
 */
function lookupWorkerOptions(config: AppConfig, queue: WorldQueue): WorkerOptions {
  return {
    ...workerConnection(config),
    concurrency: config.get('WORKER_CONCURRENCY'),
    ...(queue.paced ? { limiter: { max: config.get('REGISTER_MAX_PER_SECOND'), duration: 1000 } } : {}),
    lockDuration: config.get('WORKER_LOCK_DURATION_MS'),
    stalledInterval: config.get('WORKER_STALLED_INTERVAL_MS'),
    maxStalledCount: 2,
  };
}

/**
 * Runs register lookups in the worker process (provided only by LookupsWorkerModule), the same steps in every world:
 * the job's world picks its register surface and its cache names, and the surface says what is retried and kept.
 * Each world's queue has a worker of its own (LookupWorker), which hands every job here.
 */
@Injectable()
export class LookupProcessor {
  private readonly logger = new Logger('LookupProcessor');

  constructor(
    private readonly live: LiveRegister,
    private readonly testRegisters: TestRegisters,
    private readonly cache: ResultCache,
    private readonly clock: Clock,
    private readonly holderData: HolderDataProtection,
  ) {}

  async process(job: Job<LookupJobData, LookupJobResult>, token?: string): Promise<LookupJobResult> {
    const { data } = job;
    const world = worldOfJob(data);
    // A test user's lookup never reaches REGISTER_URL: its own test register answers, into its own cache.
    const register: RegisterSurface = forWorld(world, { live: this.live, test: (testUserId) => this.testRegisters.of(testUserId) });
    const { cacheKey } = this.cache.names(world, data);
    await this.holdBack(job, register, token);
    const store = (result: LookupJobResult) => (register.keeps(data) ? this.cache.write(cacheKey, result) : Promise.resolve());
    if (data.kind === 'name') {
      // A name search's log lines say "a name search" and nothing of the names or the date asked.
      return this.ask(job, register, 'Name search', {
        cached: () => this.cache.get(cacheKey),
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
    return this.ask(job, register, `Lookup of ${maskLicenceNumber(licenceNumber)}`, {
      cached: () => (refresh ? Promise.resolve(null) : this.cache.get(cacheKey)),
      register: async (askedAt, onPage) => toFinalResult(await register.lookup(licenceNumber, { onPage }), askedAt),
      store,
    });
  }

  /**
   * A job whose answer is not due yet (a test register's slow numbers) waits delayed, not in a worker's slot: it runs
   * again when its time comes (its clients wait on it as on any job).
   */
  private async holdBack(job: Job<LookupJobData, LookupJobResult>, register: RegisterSurface, token: string | undefined): Promise<void> {
    const answerAt = await register.answerAt(job.data, job.timestamp);
    if (Date.now() >= answerAt) return;
    await job.moveToDelayed(answerAt, token);
    throw new DelayedError();
  }

  /**
   * One lookup of either kind: the cache first, then the register, its outcome measured, logged, recorded by the
   * surface and cached.
   */
  private async ask<Result extends LookupJobResult>(
    job: Job<LookupJobData, LookupJobResult>,
    register: RegisterSurface,
    subject: string,
    steps: {
      cached: () => Promise<Result | null>;
      register: (askedAt: Date, onPage: (page: string) => void) => Promise<Result>;
      store: (result: Result) => Promise<void>;
    },
  ): Promise<Result> {
    // The enqueuing request's id, on every line about this job (passed as a field: cheaper than a context).
    const logFields = { requestId: job.data.requestId };
    // A lookup enqueued just after another one finished: its answer is already here.
    // An unreachable cache is a miss (the Redis outage is logged once elsewhere): the register still answers.
    const cached = await steps.cached().catch(() => null);
    if (cached) return cached;

    const askedAt = this.clock.now();
    let page: string | null = null;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const result = await steps.register(askedAt, (read) => (page = read));
      const took = seconds();
      register.record({ outcome: result.status, seconds: took, page });
      this.logger.log(`${subject}: ${result.status} in ${Math.round(took * 1000)} ms`, logFields);
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
      register.record({ outcome: failure, seconds: seconds(), page, error });
      // An unreachable register is the outage log's to tell, once per outage.
      if (!(error instanceof RegisterUnreachableError)) {
        const attempt = `attempt ${job.attemptsMade + 1}/${job.opts.attempts ?? 1}`;
        const detail =
          error instanceof RegisterError
            ? `${error.message}${error.excerpt === null ? '' : `: ${JSON.stringify(error.excerpt)}`}`
            : ((error as Error).stack ?? String(error));
        this.logger.warn(`${subject} failed (${attempt}): ${detail}`, logFields);
      }
      if (register.retries(failure)) throw new Error(failure, { cause: error });
      throw new UnrecoverableError(failure);
    }
  }
}

/**
 * Drains one world's queue (WORLD_QUEUES) in the worker process: the register's at its pace, the test one without a
 * limiter, so test traffic never takes a live lookup's turn. Which surface answers is the job's world's choice, in
 * LookupProcessor, not the queue's.
 */
export class LookupWorker extends QueueWorker<LookupJobData, LookupJobResult> {
  constructor(
    queue: WorldQueue,
    private readonly lookups: LookupProcessor,
    config: AppConfig,
  ) {
    super(queue.name, lookupWorkerOptions(config, queue), config.get('SHUTDOWN_GRACE_MS'));
  }

  process(job: Job<LookupJobData, LookupJobResult>, token?: string): Promise<LookupJobResult> {
    return this.lookups.process(job, token);
  }
}

/** One LookupWorker per world's queue, each under its queue's name. */
export const lookupWorkerProviders: FactoryProvider<LookupWorker>[] = Object.values(WORLD_QUEUES).map((queue) => ({
  provide: `LookupWorker:${queue.name}`,
  inject: [LookupProcessor, AppConfig],
  useFactory: (lookups: LookupProcessor, config: AppConfig) => new LookupWorker(queue, lookups, config),
}));
