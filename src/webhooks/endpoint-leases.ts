import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { Result } from 'ioredis';
import { RedisStore } from '../redis/redis.module';
import { DeliveryJobData, WEBHOOK_DELIVERY_QUEUE } from './delivery.queue';
import { ENDPOINT_LEASE_MS, endpointKeyParts, MAX_IN_FLIGHT_PER_ENDPOINT } from './webhook-limits';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    lvsTakeEndpointLease(leases: string, waiting: string, leaseMs: number, limit: number, holder: string): Result<number, Context>;
    lvsReleaseEndpointLease(leases: string, waiting: string, holder: string): Result<string | null, Context>;
  }
}

// KEYS[1]: the endpoint's leases, a sorted set of holders (delivery jobs) scored by when their lease ends
// (Redis time, ms); KEYS[2]: the jobs waiting for a slot, oldest first. Drops ended leases. Takes a lease
// if the holder has one or fewer than `limit` are held, and answers -1; else queues the holder (once) and
// answers the milliseconds until the first lease ends.
const TAKE_LEASE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('LREM', KEYS[2], 0, ARGV[3])
if redis.call('ZSCORE', KEYS[1], ARGV[3]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return -1
end
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tonumber(first[2]) - now`;

// Ends the holder's lease and answers the oldest waiting job, if any, for the caller to wake.
const RELEASE_LEASE = `
redis.call('ZREM', KEYS[1], ARGV[1])
return redis.call('LPOP', KEYS[2])`;

/**
 * The deliveries each endpoint has in flight, shared by every worker: at most MAX_IN_FLIGHT_PER_ENDPOINT,
 * each held for at most ENDPOINT_LEASE_MS (so a worker that dies frees its slot). A delivery that finds
 * no slot waits in the delayed set; the release of a slot wakes the oldest one at once.
 */
@Injectable()
export class EndpointLeases {
  constructor(
    private readonly redis: RedisStore,
    @InjectQueue(WEBHOOK_DELIVERY_QUEUE) private readonly queue: Queue<DeliveryJobData>,
  ) {
    redis.client.defineCommand('lvsTakeEndpointLease', { numberOfKeys: 2, lua: TAKE_LEASE });
    redis.client.defineCommand('lvsReleaseEndpointLease', { numberOfKeys: 2, lua: RELEASE_LEASE });
  }

  /** null when `holder` now holds a slot until release; else the milliseconds until the first slot's lease ends. */
  async take(userId: string, endpointId: string, holder: string): Promise<number | null> {
    const answer = await this.redis.client.lvsTakeEndpointLease(
      this.key('in-flight', userId, endpointId),
      this.key('waiting', userId, endpointId),
      ENDPOINT_LEASE_MS,
      MAX_IN_FLIGHT_PER_ENDPOINT,
      holder,
    );
    return answer < 0 ? null : answer;
  }

  /** Frees the slot and wakes the oldest waiting delivery (one not delayed yet keeps its own delay). */
  async release(userId: string, endpointId: string, holder: string): Promise<void> {
    const waiting = await this.redis.client.lvsReleaseEndpointLease(
      this.key('in-flight', userId, endpointId),
      this.key('waiting', userId, endpointId),
      holder,
    );
    if (waiting === null) return;
    const job = await this.queue.getJob(waiting);
    await job?.promote().catch(() => undefined); // not delayed (any more): nothing to wake
  }

  private key(purpose: 'in-flight' | 'waiting', userId: string, endpointId: string): string {
    return this.redis.key(...endpointKeyParts(purpose, userId, endpointId));
  }
}
