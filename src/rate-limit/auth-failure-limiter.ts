import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { RedisStore } from '../redis/redis.module';
import { authBlockedFor, countAuthAttempt, forgiveAuthAttempt } from '../redis/auth-failures.script';
import { isRedisUnavailable } from '../errors/dependency-unavailable';
import { clientGroup } from './client-group';

/**
 * Failed authentications per client address (an IPv6 client by its /64), counted in Redis so that every API process sees the same
 * count. An attempt is counted before its key is looked up, and forgiven when the key proves good; an address
 * over AUTH_FAILURES_PER_MINUTE is refused before its key is looked up. With Redis
 * unreachable nothing is counted or refused: authentication itself needs only PostgreSQL, and the
 * quota usage route must keep answering as it did.
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly logger = new Logger('AuthFailureLimiter');
  private readonly allowed: number;

  constructor(
    private readonly redis: RedisStore,
    config: AppConfig,
  ) {
    this.allowed = config.get('AUTH_FAILURES_PER_MINUTE');
  }

  /** Whole seconds this address must wait before it may try a key again; 0 when it may now. */
  async secondsBlocked(address: string): Promise<number> {
    const milliseconds = await this.unlessRedisIsDown(authBlockedFor.run(this.redis.client, [this.counterKey(address)], [this.allowed]), 0);
    return Math.ceil(milliseconds / 1000);
  }

  /**
   * Counts an attempt before its key is looked up, and answers as secondsBlocked does: counting first, in the
   * same step as the comparison, is what keeps simultaneous failures from all passing a check made before any
   * of them was counted. A key that proves good is then forgiven.
   */
  async countAttempt(address: string): Promise<number> {
    const milliseconds = await this.unlessRedisIsDown(countAuthAttempt.run(this.redis.client, [this.counterKey(address)], [this.allowed]), 0);
    return Math.ceil(milliseconds / 1000);
  }

  /** Takes back the attempt countAttempt counted, once its key proved good. */
  async forgive(address: string): Promise<void> {
    await this.unlessRedisIsDown(forgiveAuthAttempt.run(this.redis.client, [this.counterKey(address)], []), 0);
  }

  private unlessRedisIsDown<T>(command: Promise<T>, fallback: T): Promise<T> {
    return command.catch((error: unknown) => {
      if (!isRedisUnavailable(error)) throw error;
      this.logger.debug('Redis unavailable: authentication failures are not limited meanwhile');
      return fallback;
    });
  }

  /** One counter per client group: an IPv6 client's whole /64 counts as one address. */
  private counterKey(address: string): string {
    return this.redis.key('auth-failures', `{a${clientGroup(address)}}`);
  }
}
