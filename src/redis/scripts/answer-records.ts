import { redisScript } from './redis-script';

/** One answer's reply: its verification id (the one kept before, on a replay) and its record's time to live in ms. */
export type RecordReply = [verificationId: string, ttlMs: number];

/**
 * For each answer of a turn: the id already kept under its replay field in the idempotency record (a replay),
 * or a new id kept there and the record appended to the evidence stream, in one atomic step: an id a client
 * receives always has its record. Each reply is the id and the record's time to live in ms. KEYS: each answer's
 * idempotency record, then the stream. ARGV: record TTL in seconds, then per answer its replay field, new id and
 * record JSON. One answer's failure (a key of the wrong type) fails only its own.
 */
export const recordAnswers = redisScript<
  [...records: string[], stream: string],
  [ttlSeconds: number, ...fieldIdAndRecordOfEach: string[]],
  (RecordReply | Error)[]
>({
  name: 'recordAnswers',
  numberOfKeys: null,
  lua: `
local function record(key, field, id, entry)
  local kept = redis.call('HGET', key, field)
  if not kept then
    redis.call('HSET', key, field, id)
    redis.call('EXPIRE', key, ARGV[1], 'NX')
    redis.call('XADD', KEYS[#KEYS], '*', 'record', entry)
    kept = id
  end
  return { kept, redis.call('PTTL', key) }
end
local replies = {}
for i = 1, #KEYS - 1 do
  local ok, reply = pcall(record, KEYS[i], ARGV[3 * i - 1], ARGV[3 * i], ARGV[3 * i + 1])
  if not ok then reply = { err = type(reply) == 'table' and reply.err or tostring(reply) } end
  replies[i] = reply
end
return replies
`,
});
