import { redisScript } from '../redis/redis-script';

/**
 * KEYS[1]: the endpoint's leases, a sorted set of holders (delivery jobs) scored by when their lease ends
 * (Redis time, ms); KEYS[2]: the jobs waiting for a slot, oldest first. Drops ended leases. Takes a lease
 * if the holder has one or fewer than `limit` are held, and answers -1; else queues the holder (once) and
 * answers the milliseconds until the first lease ends.
 */
export const takeEndpointLease = redisScript<[leases: string, waiting: string], [leaseMs: number, limit: number, holder: string], number>({
  name: 'takeEndpointLease',
  numberOfKeys: 2,
  lua: `
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
return tonumber(first[2]) - now`,
});

/** Ends the holder's lease and answers the oldest waiting job, if any, for the caller to wake. Keys as above. */
export const releaseEndpointLease = redisScript<[leases: string, waiting: string], [holder: string], string | null>({
  name: 'releaseEndpointLease',
  numberOfKeys: 2,
  lua: `
redis.call('ZREM', KEYS[1], ARGV[1])
return redis.call('LPOP', KEYS[2])`,
});
