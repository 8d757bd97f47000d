import { redisScript } from './redis-script';

/**
 * Takes a place in the user's live lookups (a sorted set of job ids, scored by when they lapse) unless it holds
 * ARGV[3] already. Answers how many the user had before, or -1 when refused.
 * KEYS: the user's places; ARGV: now, lapse time, max, job id.
 */
export const takeLivePlace = redisScript<[places: string], [now: number, lapseAt: number, max: number, jobId: string], number>({
  name: 'takeLivePlace',
  numberOfKeys: 1,
  lua: `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[3]) then return -1 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return held
`,
});
