import { WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { RegisterClient, RegisterError, RegisterParseError, RegisterUnavailableError, RegisterUnreachableError } from '@lvs/register';
import { Job, UnrecoverableError } from 'bullmq';
import { RegisterBreaker } from '../breaker/register-breaker';
import { Clock } from '../clock/clock';
import { maskLicenceNumber } from '../logging/mask-licence-number';
import { RegisterOutageLog } from '../logging/register-outage-log';
import { LookupOutcomeLabel, Metrics } from '../metrics/metrics';
import { toFinalResult } from './outcome-status';
import { ResultCache } from './result-cache';
import { LOOKUP_FAILURE, LookupJobData, LookupJobResult } from './verification.queue';

/**
 * Runs register lookups in the worker process (decorated with @Processor by WorkerModule, with
 * options from the settings). Only an unavailable register is retried: a page we cannot read
 * will not read better a second later, and retrying would only load a public service.
 */
@Injectable()
export class VerificationProcessor extends WorkerHost {
  private readonly logger = new Logger('VerificationProcessor');
  /** An unreachable register is logged once per outage, not per attempt of every number. */
  private readonly outages = new RegisterOutageLog(this.logger);

  constructor(
    private readonly register: RegisterClient,
    private readonly cache: ResultCache,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly breaker: RegisterBreaker,
  ) {
    super();
  }

  async process(job: Job<LookupJobData, LookupJobResult>): Promise<LookupJobResult> {
    const { licenceNumber, refresh } = job.data;
    // The enqueuing request's id, on every line about this job (passed as a field: cheaper than a context).
    const logFields = { requestId: job.data.requestId };
    // A lookup enqueued just after another one finished: its answer is already here.
    // An unreachable cache is a miss (the Redis outage is logged once elsewhere): the register still answers.
    const cached = refresh ? null : await this.cache.get(licenceNumber).catch(() => null);
    if (cached) return cached;

    const askedAt = this.clock.now();
    const started = performance.now();
    const observe = (outcome: LookupOutcomeLabel) => {
      const seconds = (performance.now() - started) / 1000;
      this.metrics.observeLookup(outcome, seconds);
      return seconds;
    };
    try {
      const result = toFinalResult(await this.register.lookup(licenceNumber), askedAt);
      this.recordForBreaker('answered');
      this.outages.answered();
      const seconds = observe(result.status);
      this.logger.log(`Lookup of ${maskLicenceNumber(licenceNumber)}: ${result.status} in ${Math.round(seconds * 1000)} ms`, logFields);
      // Not cached, the result still answers this job's clients; the next lookup of the number asks again.
      await this.cache.put(licenceNumber, result).catch(() => undefined);
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
        this.logger.warn(`Lookup of ${maskLicenceNumber(licenceNumber)} failed (${attempt}): ${detail}`, logFields);
      }
      if (failure === LOOKUP_FAILURE.unavailable) throw new Error(failure);
      throw new UnrecoverableError(failure);
    }
  }

  /** Not awaited: the lookup's own outcome does not depend on the breaker's bookkeeping. */
  private recordForBreaker(outcome: 'answered' | 'unavailable'): void {
    this.breaker.record(outcome).catch((error: unknown) => this.logger.warn(`Recording a lookup outcome for the breaker failed: ${(error as Error).message}`));
  }
}
