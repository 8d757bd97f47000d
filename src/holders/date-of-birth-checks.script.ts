import { redisScript } from '../redis/redis-script';

/**
 * Admits a date of birth for a number: one already checked this month is admitted again and does not count; a new
 * one is admitted while fewer than ARGV[2] dates are. 1 when admitted, else 0.
 * KEYS: the set of date digests of one user, number and month; ARGV: digest, max, ttl.
 */
export const admitDateOfBirth = redisScript<[dates: string], [digest: string, max: number, ttlSeconds: number], 0 | 1>({
  name: 'admitDateOfBirth',
  numberOfKeys: 1,
  lua: `
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
`,
});
