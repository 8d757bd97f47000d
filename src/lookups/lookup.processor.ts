import { Injectable, Logger } from '@nestjs/common';
import { NameSearch, RegisterClient, RegisterError, RegisterParseError, RegisterUnavailableError, RegisterUnreachableError } from '@lvs/register';
import { Job, UnrecoverableError, WorkerOptions } from 'bullmq';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { maskLicenceNumber } from '../logging/mask-licence-number';
import { RegisterOutageLog } from '../logging/register-outage-log';
import { LookupOutcomeLabel, Metrics } from '../metrics/metrics';
import { QueueWorker, workerConnection } from '../redis/queue-worker';
import { HolderDataProtection, holderDataRow } from '../secrets/holder-data';
import { RegisterBreaker } from './breaker/register-breaker';
import { toFinalResult, toNameSearchResult } from './lookup-outcome';
import { LOOKUP_FAILURE, LookupJobData, LookupJobResult, REGISTER_LOOKUP_QUEUE } from './lookups.queue';
import { ResultCache } from './result-cache';

/** The lookup worker's options from the settings; the limiter is global, shared by every worker through Redis. */
function lookupWorkerOptions(config: AppConfig): WorkerOptions {
  return {
    ...workerConnection(config),
    concurrency: config.get('WORKER_CONCURRENCY'),
    limiter: { max: config.get('REGISTER_MAX_PER_SECOND'), duration: 1000 },
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
    config: AppConfig,
  ) {
    super(REGISTER_LOOKUP_QUEUE, lookupWorkerOptions(config));
  }

  async process(job: Job<LookupJobData, LookupJobResult>): Promise<LookupJobResult> {
    const { data } = job;
    if (data.kind === 'name') {
      // A name search's log lines say "a name search" and nothing of the names or the date asked.
      return this.ask(job, 'Name search', {
        cached: () => this.cache.getNameSearch(data.searchKey),
        register: async (askedAt) =>
          toNameSearchResult(await this.register.searchByName(JSON.parse(this.holderData.open(data.sealedSearch, holderDataRow.nameSearch(data.searchKey))) as NameSearch), askedAt),
        store: (result) => this.cache.putNameSearch(data.searchKey, result),
      });
    }
    const { licenceNumber, refresh } = data;
    return this.ask(job, `Lookup of ${maskLicenceNumber(licenceNumber)}`, {
      cached: () => (refresh ? Promise.resolve(null) : this.cache.get(licenceNumber)),
      register: async (askedAt) => toFinalResult(await this.register.lookup(licenceNumber), askedAt),
      store: (result) => this.cache.put(licenceNumber, result),
    });
  }

  /** One lookup of either kind: the cache first, then the register, its outcome measured, logged and cached. */
  private async ask<Result extends LookupJobResult>(
    job: Job<LookupJobData, LookupJobResult>,
    subject: string,
    steps: { cached: () => Promise<Result | null>; register: (askedAt: Date) => Promise<Result>; store: (result: Result) => Promise<void> },
  ): Promise<Result> {
    // The enqueuing request's id, on every line about this job (passed as a field: cheaper than a context).
    const logFields = { requestId: job.data.requestId };
    // A lookup enqueued just after another one finished: its answer is already here.
    // An unreachable cache is a miss (the Redis outage is logged once elsewhere): the register still answers.
    const cached = await steps.cached().catch(() => null);
    if (cached) return cached;

    const askedAt = this.clock.now();
    const started = performance.now();
    const observe = (outcome: LookupOutcomeLabel) => {
      const seconds = (performance.now() - started) / 1000;
      this.metrics.observeLookup(outcome, seconds);
      return seconds;
    };
    try {
      const result = await steps.register(askedAt);
      this.recordForBreaker('answered');
      this.outages.answered();
      const seconds = observe(result.status);
      this.logger.log(`${subject}: ${result.status} in ${Math.round(seconds * 1000)} ms`, logFields);
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
      if (failure === LOOKUP_FAILURE.unavailable) this.recordForBreaker('unavailable');
      if (error instanceof RegisterUnreachableError) {
        this.outages.unreachable(error);
      } else {
        if (error instanceof RegisterError) this.outages.answered();
        const attempt = `attempt ${job.attemptsMade + 1}/${job.opts.attempts ?? 1}`;
        const detail =
          error instanceof RegisterError
            ? `${error.message}${error.excerpt === null ? '' : `: ${JSON.stringify(error.excerpt)}`}`
            : (error as Error).stack ?? String(error);
        this.logger.warn(`${subject} failed (${attempt}): ${detail}`, logFields);
      }
      if (failure === LOOKUP_FAILURE.unavailable) throw new Error(failure, { cause: error });
      throw new UnrecoverableError(failure);
    }
  }

  /** Not awaited: the lookup's own outcome does not depend on the breaker's bookkeeping. */
  private recordForBreaker(outcome: 'answered' | 'unavailable'): void {
    this.breaker.record(outcome).catch((error: unknown) => this.logger.warn(`Recording a lookup outcome for the breaker failed: ${(error as Error).message}`));
  }
}
