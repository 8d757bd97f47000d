import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { Metrics } from '../../metrics/metrics';
import { RedisStore } from '../../redis/redis.module';
import { compareAndSet } from '../../redis/compare-and-set.script';
import { admitLookup, BreakerPhase, BreakerSettings, BreakerState, parseBreakerState, recordOutcome } from './breaker-state';

// Concurrent writers are rare (a transition at a time); past this many lost races, give up on this change.
const MAX_RACES = 5;
/** The breaker's phase changes kept, newest last: the operator console's Register page shows them. */
const HISTORY_KEPT = 100;

/** A change of the breaker's phase: when (epoch ms), into which phase, and the unavailable attempts in a row then. */
export interface BreakerChange {
  at: number;
  phase: BreakerPhase;
  failures: number;
}

/**
 * The register circuit breaker shared by every process: the state lives in one Redis key, and
 * each change is decided by the pure functions of breaker-state and written with a
 * compare-and-set, so two processes never both take the one probe or lose each other's counts.
 */
@Injectable()
export class RegisterBreaker {
  private readonly logger = new Logger('RegisterBreaker');
  private readonly key: string;
  private readonly historyKey: string;
  private readonly settings: BreakerSettings;

  constructor(
    private readonly redis: RedisStore,
    config: AppConfig,
    metrics: Metrics,
  ) {
    this.key = redis.key('register-breaker');
    this.historyKey = redis.key('register-breaker:history');
    this.settings = {
      failureThreshold: config.get('REGISTER_BREAKER_FAILURES'),
      cooldownMs: config.get('REGISTER_BREAKER_COOLDOWN_SECONDS') * 1000,
    };
    metrics.readBreakerPhaseFrom(async () => (await this.state()).phase);
  }

  async state(): Promise<BreakerState> {
    return parseBreakerState(await this.redis.client.get(this.key));
  }

  /** Whether a new lookup may go to the register; one Redis read while closed. */
  async admit(): Promise<boolean> {
    let admitted = false;
    const changed = await this.change((state) => {
      const admission = admitLookup(state, Date.now(), this.settings);
      admitted = admission.admitted;
      return admission.next;
    });
    // Lost every race: other processes are changing the state right now (a probe going out); refuse.
    return changed !== null && admitted;
  }

  /** Counts a lookup attempt's outcome (worker). */
  async record(outcome: 'answered' | 'unavailable'): Promise<void> {
    const changed = await this.change((state) => recordOutcome(state, outcome, Date.now(), this.settings));
    if (!changed) return;
    const { before, after } = changed;
    if (before.phase !== 'open' && after.phase === 'open') {
      this.logger.warn(`Register unavailable ${after.failures} times in a row: new lookups are refused for ${this.settings.cooldownMs / 1000} s`);
    } else if (before.phase !== 'closed' && after.phase === 'closed') {
      this.logger.log('Register answers again: lookups resume');
    }
  }

  /** The latest phase changes, newest first. */
  async history(count: number): Promise<BreakerChange[]> {
    const entries = await this.redis.client.xrevrange(this.historyKey, '+', '-', 'COUNT', count);
    return entries.map(([, fields]) => {
      const field = (name: string) => fields[fields.indexOf(name) + 1];
      return { at: Number(field('at')), phase: field('phase') as BreakerPhase, failures: Number(field('failures')) };
    });
  }

  /**
   * Appends a phase change to the capped history: only on a change, which is rare, so no lookup pays for it. Not
   * awaited: a lost entry must not refuse or fail a lookup.
   */
  private remember(after: BreakerState): void {
    this.redis.client
      .xadd(this.historyKey, 'MAXLEN', HISTORY_KEPT, '*', 'at', String(Date.now()), 'phase', after.phase, 'failures', String(after.failures))
      .catch((error: unknown) => this.logger.warn(`Recording a breaker change failed: ${(error as Error).message}`));
  }

  /** Applies `decide` atomically; null when other writers won every race. */
  private async change(decide: (state: BreakerState) => BreakerState): Promise<{ before: BreakerState; after: BreakerState } | null> {
    for (let race = 0; race < MAX_RACES; race += 1) {
      const stored = await this.redis.client.get(this.key);
      const before = parseBreakerState(stored);
      const after = decide(before);
      if (after === before) return { before, after };
      if (await compareAndSet.run(this.redis.client, [this.key], [stored ?? '', JSON.stringify(after)])) {
        if (after.phase !== before.phase) this.remember(after);
        return { before, after };
      }
    }
    return null;
  }
}
