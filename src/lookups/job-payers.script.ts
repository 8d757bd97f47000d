import { redisScript } from '../redis/redis-script';

/**
 * Moves a job's payers to its refunding set and leases the refund to the caller until ARGV[2]
 * (ms). Answers 'busy' while another process holds an unexpired lease, 'settled' when nothing is
 * left to refund, else 'claimed' followed by the charges to refund. A refunder that dies leaves
 * the set and an expired lease, so the next claim refunds again; refunds are idempotent.
 * KEYS: payers set, refunding set, index; ARGV: job id, lease end (ms), now (ms), ttl (s).
 */
export const claimRefund = redisScript<
  [payers: string, refunding: string, index: string],
  [jobId: string, leaseEnd: number, now: number, ttlSeconds: number],
  ['busy' | 'settled'] | ['claimed', ...string[]]
>({
  name: 'claimRefund',
  numberOfKeys: 3,
  lua: `
if redis.call('EXISTS', KEYS[2]) == 1 then
  local lease = tonumber(redis.call('ZSCORE', KEYS[3], ARGV[1]) or '0')
  if lease > tonumber(ARGV[3]) then return {'busy'} end
end
for _, member in ipairs(redis.call('SMEMBERS', KEYS[1])) do redis.call('SADD', KEYS[2], member) end
redis.call('DEL', KEYS[1])
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('ZREM', KEYS[3], ARGV[1])
  return {'settled'}
end
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
local claimed = redis.call('SMEMBERS', KEYS[2])
table.insert(claimed, 1, 'claimed')
return claimed
`,
});

/**
 * Takes the members of one user out of a job's payers and answers them. KEYS: payers set; ARGV: user id.
 */
export const withdrawPayers = redisScript<[payers: string], [userId: string], string[]>({
  name: 'withdrawPayers',
  numberOfKeys: 1,
  lua: `
local taken = {}
for _, member in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if cjson.decode(member).userId == ARGV[1] then
    redis.call('SREM', KEYS[1], member)
    table.insert(taken, member)
  end
end
return taken
`,
});
