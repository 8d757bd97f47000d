import { redisScript } from './redis-script';

/** An address's failures are counted in a fixed window from its first failure. */
export const AUTH_FAILURE_WINDOW_MS = 60_000;

/**
 * KEYS[1]: an address's failure counter. ARGV[1]: failures allowed. Returns the milliseconds until the
 * address may try again, or 0 while it is under the limit.
 */
export const authBlockedFor = redisScript<[failures: string], [allowed: number], number>({
  name: 'authBlockedFor',
  numberOfKeys: 1,
  lua: `
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
if failures < tonumber(ARGV[1]) then return 0 end
return math.max(redis.call('PTTL', KEYS[1]), 1)
`,
});

/**
 * KEYS[1]: an address's failure counter, counted in a fixed minute from its first attempt. ARGV[1]: failures
 * allowed. Counts an attempt whose key is not yet known good, then compares, in one step: simultaneous attempts
 * each take their own place in the count, so no more than ARGV[1] of them are let through to a key lookup.
 * An attempt refused here gives its place back: it reached no lookup, so it is no failure, and once the good keys
 * in flight are forgiven the address may try again. Were it kept, a burst of new keys past the limit (a proxy in
 * front of many partners, just after a start) would block the address for the rest of the minute.
 * Returns the milliseconds until the address may try again, or 0 when this attempt may go on.
 */
export const countAuthAttempt = redisScript<[failures: string], [allowed: number], number>({
  name: 'countAuthAttempt',
  numberOfKeys: 1,
  lua: `
local failures = redis.call('INCR', KEYS[1])
if failures == 1 then redis.call('PEXPIRE', KEYS[1], ${AUTH_FAILURE_WINDOW_MS}) end
if failures <= tonumber(ARGV[1]) then return 0 end
redis.call('DECR', KEYS[1])
return math.max(redis.call('PTTL', KEYS[1]), 1)
`,
});

/** KEYS[1]: an address's failure counter. Takes back one attempt counted by countAuthAttempt whose key proved good. Returns the count. */
export const forgiveAuthAttempt = redisScript<[failures: string], [], number>({
  name: 'forgiveAuthAttempt',
  numberOfKeys: 1,
  lua: `
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
if failures < 1 then return 0 end
return redis.call('DECR', KEYS[1])
`,
});
