import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { isDatabaseUnavailable } from '../errors/dependency-unavailable';
import { AuthRepository } from './auth.repository';
import { isUseWorthRecording } from './key-use';

const FLUSH_INTERVAL_MS = 5_000;

/**
 * Keeps api_keys.last_used_at to the minute without touching the request path: a use only marks the key in
 * memory (at most once a minute per key), and a timer writes the marked keys in one statement. The statement
 * itself skips keys another process wrote less than a minute ago, so each key is written at most once a minute.
 */
@Injectable()
export class KeyUseRecorder implements OnModuleDestroy {
  private readonly logger = new Logger(KeyUseRecorder.name);
  private readonly lastRecorded: LRUCache<string, number>;
  private readonly pending = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly repository: AuthRepository,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.lastRecorded = new LRUCache({ max: config.get('AUTH_CACHE_MAX_KEYS') });
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS).unref();
  }

  record(keyId: string): void {
    const now = this.clock.now().getTime();
    if (!isUseWorthRecording(this.lastRecorded.get(keyId), now)) return;
    this.lastRecorded.set(keyId, now);
    this.pending.add(keyId);
  }

  private async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const keyIds = [...this.pending];
    this.pending.clear();
    await this.repository
      .recordKeyUses(keyIds, this.clock.now())
      // A lost "last used" costs a minute of accuracy, not a request: the next use marks the key again. An
      // unreachable database is reported by the readiness probe and the requests that need it, not here again.
      .catch((error: unknown) => {
        for (const keyId of keyIds) this.lastRecorded.delete(keyId);
        if (!isDatabaseUnavailable(error)) this.logger.warn(`Could not record the last use of ${keyIds.length} API keys: ${(error as Error).message}`);
      });
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
