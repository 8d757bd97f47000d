import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import type { FinalResult } from '../lookups/lookup-outcome';
import type { RecheckLookupRequest, LookupUser } from '../lookups/lookup-request';
import { LookupSubject, numberSubject } from '../lookups/lookup-subject';
import { LookupService } from '../lookups/lookup.service';
import type { LookupJobResult } from '../lookups/lookup-outcome';
import { RECHECK_LOOKUP_WAIT_MS } from './recheck.queue';

/** The lookups of re-checks and successor searches: bounded in time, and given up when the worker stops. */
@Injectable()
export class RecheckLookups implements OnModuleDestroy {
  // The monitor's log context, as before its steps became classes of their own.
  private readonly logger = new Logger('LicenceMonitor');
  /** aborted at shutdown: re-checks stop waiting for lookups the closing worker will not finish */
  private readonly stopping = new AbortController();

  constructor(private readonly lookups: LookupService) {}

  onModuleDestroy(): void {
    this.stopping.abort();
  }

  /**
   * The register's answer for this cycle: a cached answer newer than the last one recorded (a
   * partner's verify) counts as the re-check; otherwise a lookup at the lowest priority that
   * skips the cache. null when the lookup failed or is still running, or when the register breaker is open
   * (re-checks keep off a register that is down, like new verifications): nothing is concluded.
   */
  currentResult(licenceNumber: string, user: LookupUser, lastChecked: Date | null): Promise<FinalResult | null> {
    return this.lookup<FinalResult>(numberSubject(licenceNumber), user, { newerThan: lastChecked });
  }

  /**
   * A re-check's lookup: waits up to RECHECK_LOOKUP_WAIT_MS, or until the worker stops. null when it is refused
   * (the breaker is open: re-checks keep off a register that is down), failed, or still running: nothing is concluded.
   */
  async lookup<Result extends LookupJobResult>(
    subject: LookupSubject,
    user: LookupUser,
    cache: RecheckLookupRequest['cache'] = 'use',
  ): Promise<Result | null> {
    try {
      const answer = await this.lookups.lookup<Result>({
        subject,
        user,
        kind: 'recheck',
        deadline: Date.now() + RECHECK_LOOKUP_WAIT_MS,
        signal: this.stopping.signal,
        cache,
      });
      if (answer.state === 'answered') return answer.result;
      this.logger.warn(`A re-check's lookup is still running: left to the next cycle`);
      return null;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code !== 'SERVICE_UNAVAILABLE') this.logger.warn(`A re-check's lookup failed (${error.code}): left to the next cycle`);
      return null;
    }
  }
}
