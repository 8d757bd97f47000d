import { redisScript } from '../redis/redis-script';

/**
 * Counts one user's waiting lookups: both pending lists, and the places held by requests (members
 * "<id>:<places>", scored by when they lapse). With ARGV[2] > 0 places, also holds them when the count
 * stays within ARGV[3]. Answers {batch list, re-check list, places held, 1 when held now}.
 * KEYS: batch list, re-check list, holds; ARGV: now, places, max, lapse time, member. All keys of one user.
 */
export const countWaitingLookups = redisScript<
  [batchList: string, recheckList: string, holds: string],
  [now: number, places: number, max: number, lapseAt: number, member: string],
  [batchItems: number, rechecks: number, held: number, reserved: 0 | 1]
>({
  name: 'countWaitingLookups',
  numberOfKeys: 3,
  lua: `
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])
local lists = {redis.call('LLEN', KEYS[1]), redis.call('LLEN', KEYS[2])}
local held = 0
for _, member in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  held = held + tonumber(string.match(member, ':(%d+)$'))
end
local places = tonumber(ARGV[2])
if places == 0 or lists[1] + lists[2] + held + places > tonumber(ARGV[3]) then
  return {lists[1], lists[2], held, 0}
end
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
redis.call('PEXPIREAT', KEYS[3], ARGV[4])
return {lists[1], lists[2], held, 1}
`,
});
