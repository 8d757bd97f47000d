import { Injectable } from '@nestjs/common';
import type { Result } from 'ioredis';
import { RedisStore } from '../redis/redis.module';
import { ENDPOINT_LEASE_MS, endpointKeyParts, MAX_IN_FLIGHT_PER_ENDPOINT } from './webhook-limits';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    lvsTakeEndpointLease(leases: string, leaseMs: number, limit: number, holder: string): Result<number, Context>;
  }
}

// KEYS[1]: the endpoint's leases, a sorted set of holders scored by when their lease ends (Redis time, ms).
// Drops ended leases, then takes one if the holder has none and fewer than `limit` are held. 1: taken.
const TAKE_LEASE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[3]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/**
 * How many deliveries each endpoint has in flight, shared by every worker: at most
 * MAX_IN_FLIGHT_PER_ENDPOINT, each held for at most ENDPOINT_LEASE_MS (so a worker that dies frees its slot).
 */
@Injectable()
export class EndpointLeases {
  constructor(private readonly redis: RedisStore) {
    redis.client.defineCommand('lvsTakeEndpointLease', { numberOfKeys: 1, lua: TAKE_LEASE });
  }

  /** Whether `holder` (a delivery job) may send to the endpoint now; if so it holds a slot until release. */
  async take(userId: string, endpointId: string, holder: string): Promise<boolean> {
    return (await this.redis.client.lvsTakeEndpointLease(this.key(userId, endpointId), ENDPOINT_LEASE_MS, MAX_IN_FLIGHT_PER_ENDPOINT, holder)) === 1;
  }

  async release(userId: string, endpointId: string, holder: string): Promise<void> {
    await this.redis.client.zrem(this.key(userId, endpointId), holder);
  }

  private key(userId: string, endpointId: string): string {
    return this.redis.key(...endpointKeyParts('in-flight', userId, endpointId));
  }
}
