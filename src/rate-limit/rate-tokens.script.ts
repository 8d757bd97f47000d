import { redisScript } from '../redis/redis-script';

/**
 * token-bucket.ts's backlogAt, then takeToken once per request (the rule its unit tests pin down), applied
 * atomically to one user's bucket at Redis's clock, so that every API process measures time alike.
 * KEYS[1]: the bucket, a hash {backlog, at}. ARGV: rate per second, burst, TOKEN_UNITS, requests.
 * Returns, per request in order, {1 admitted | 0 refused, the backlog after it}. Numbers are written with
 * %.0f: Redis would turn a Lua number into text with 14 digits, and a microsecond clock has 16.
 */
export const takeRateTokens = redisScript<
  [bucket: string],
  [ratePerSecond: number, burst: number, tokenUnits: number, requests: number],
  [admitted: 0 | 1, backlog: string][]
>({
  name: 'takeRateTokens',
  numberOfKeys: 1,
  lua: `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local rate, burst, unit, requests = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local stored = redis.call('HMGET', KEYS[1], 'backlog', 'at')
local backlog = 0
if stored[1] then backlog = math.max(0, tonumber(stored[1]) - math.max(0, now - tonumber(stored[2])) * rate) end
local taken = false
local replies = {}
for i = 1, requests do
  local admitted = 0
  if backlog + unit <= burst * unit then
    backlog = backlog + unit
    admitted = 1
    taken = true
  end
  replies[i] = { admitted, string.format('%.0f', backlog) }
end
if taken then
  redis.call('HSET', KEYS[1], 'backlog', string.format('%.0f', backlog), 'at', string.format('%.0f', now))
  redis.call('PEXPIRE', KEYS[1], math.ceil(backlog / rate / 1000) + 1)
end
return replies
`,
});
