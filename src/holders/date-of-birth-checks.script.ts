import { redisScript } from '../redis/redis-script';

/**
 * Admits each date of birth of a turn for its number (or person): one already checked this month is admitted again and
 * does not count; a new one is admitted while fewer than ARGV[1] dates are. Checks run in order, so two of one set in
 * the same call count as they would one after the other. 1 when admitted, else 0, per check; a check that fails (a key
 * holding the wrong type) answers its own error and the others still run.
 * KEYS: per check, the set of date digests of one user, number (or person) and month; ARGV: max, ttl, then per check
 * its date's digest.
 */
export const admitDatesOfBirth = redisScript<string[], [max: number, ttlSeconds: number, ...digests: string[]], (0 | 1 | Error)[]>({
  name: 'admitDatesOfBirth',
  numberOfKeys: null,
  lua: `
local function admit(dates, digest)
  if redis.call('SISMEMBER', dates, digest) == 1 then return 1 end
  if redis.call('SCARD', dates) >= tonumber(ARGV[1]) then return 0 end
  redis.call('SADD', dates, digest)
  redis.call('EXPIRE', dates, ARGV[2])
  return 1
end
local replies = {}
for i = 1, #KEYS do
  local ok, reply = pcall(admit, KEYS[i], ARGV[i + 2])
  if not ok then reply = { err = type(reply) == 'table' and reply.err or tostring(reply) } end
  replies[i] = reply
end
return replies
`,
});
