import { redisScript } from '../redis/redis-script';

/** One claim's reply: the number the key is bound to, its job id, 1 when charged this period, the cached result. */
export type ClaimReply = [string, string | null, 0 | 1, string | null];

/**
 * For each claim of a turn: binds the key to the number unless it is bound already, then reads the
 * record, the charged marker and the cached result: a repeat verification needs nothing else.
 * KEYS, three per claim: idempotency record, charged markers of the user and period, cached result.
 * ARGV: record TTL in seconds, then the licence number of each claim.
 * A claim that fails (a key holding the wrong type) answers its own error and the others still run:
 * one request's claim never fails another's.
 */
export const claimIdempotencyKeys = redisScript<string[], [ttlSeconds: number, ...licenceNumbers: string[]], (ClaimReply | Error)[]>({
  name: 'claimIdempotencyKeys',
  numberOfKeys: null,
  lua: `
local function claim(record, markers, cached, licenceNumber)
  redis.call('HSETNX', record, 'licenceNumber', licenceNumber)
  redis.call('EXPIRE', record, ARGV[1], 'NX')
  local bound = redis.call('HMGET', record, 'licenceNumber', 'jobId')
  return { bound[1], bound[2], redis.call('HEXISTS', markers, licenceNumber), redis.call('GET', cached) }
end
local replies = {}
for i = 1, #ARGV - 1 do
  local ok, reply = pcall(claim, KEYS[3 * i - 2], KEYS[3 * i - 1], KEYS[3 * i], ARGV[i + 1])
  if not ok then reply = { err = type(reply) == 'table' and reply.err or tostring(reply) } end
  replies[i] = reply
end
return replies
`,
});
