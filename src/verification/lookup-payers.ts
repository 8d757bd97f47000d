import { Injectable } from '@nestjs/common';
import { RedisStore } from '../redis/redis.module';
import type { Charge } from '../quota/quota.service';

// A bound, not the usual life: the set goes when its job finishes, but a job may wait for workers.
const PAYERS_TTL_SECONDS = 2 * 24 * 3600;

/**
 * The new charges that wait on one lookup job, so that whichever process sees the job fail
 * refunds each of them exactly once (taking them is atomic), even for clients that went away
 * after a 202.
 */
@Injectable()
export class LookupPayers {
  constructor(private readonly redis: RedisStore) {}

  async add(jobId: string, charge: Charge): Promise<void> {
    const key = this.redis.key('payers', jobId);
    await this.redis.client.multi().sadd(key, JSON.stringify(charge)).expire(key, PAYERS_TTL_SECONDS).exec();
  }

  /** After a successful lookup its payers owe what they paid: nothing left to remember. */
  async forget(jobId: string): Promise<void> {
    await this.redis.client.del(this.redis.key('payers', jobId));
  }

  async take(jobId: string): Promise<Charge[]> {
    const key = this.redis.key('payers', jobId);
    const replies = await this.redis.client.multi().smembers(key).del(key).exec();
    const members = (replies?.[0]?.[1] ?? []) as string[];
    return members.map((member) => JSON.parse(member) as Charge);
  }
}
