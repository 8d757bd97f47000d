import { redisScript } from '../redis/redis-script';

/** One answer's reply: its verification id (the one kept before, on a replay) and its record's time to live in ms. */
export type RecordReply = [verificationId: string, ttlMs: number];

/**
 * For each answer of a turn: the id already kept under its replay field in the idempotency record when the answer
 * kept with it (its fingerprint, under the field plus ':answer') is this one (a replay); otherwise a new id and
 * this answer's fingerprint kept there and the record appended to the evidence stream, in one atomic step: an id
 * a client receives always has its record, and that record is the answer it came with. Each reply is the id and
 * the record's time to live in ms. KEYS: each answer's idempotency record, then the stream. ARGV: record TTL in
 * seconds, then per answer its replay field, fingerprint, new id and record JSON. One answer's failure (a key of
 * the wrong type) fails only its own.
 */
export const recordAnswers = redisScript<
  [...records: string[], stream: string],
  [ttlSeconds: number, ...fieldFingerprintIdAndRecordOfEach: string[]],
  (RecordReply | Error)[]
>({
  name: 'recordAnswers',
  numberOfKeys: null,
  lua: `
local function record(key, field, fingerprint, id, entry)
  local kept = redis.call('HMGET', key, field, field .. ':answer')
  if kept[1] and kept[2] == fingerprint then return { kept[1], redis.call('PTTL', key) } end
  redis.call('HSET', key, field, id, field .. ':answer', fingerprint)
  redis.call('EXPIRE', key, ARGV[1], 'NX')
  redis.call('XADD', KEYS[#KEYS], '*', 'record', entry)
  return { id, redis.call('PTTL', key) }
end
local replies = {}
for i = 1, #KEYS - 1 do
  local ok, reply = pcall(record, KEYS[i], ARGV[4 * i - 2], ARGV[4 * i - 1], ARGV[4 * i], ARGV[4 * i + 1])
  if not ok then reply = { err = type(reply) == 'table' and reply.err or tostring(reply) } end
  replies[i] = reply
end
return replies
`,
});
