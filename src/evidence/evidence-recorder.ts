import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { perTurnLoader } from '../redis/per-turn-loader';
import { RedisStore } from '../redis/redis.module';
import { RecordedAnswer, recordOf } from './verification-record';

// For each answer of a turn: the id already kept under its replay field in the idempotency record (a replay),
// or a new id kept there and the record appended to the evidence stream, in one atomic step: an id a client
// receives always has its record. Each reply is the id and the record's time to live in ms. KEYS: each answer's
// idempotency record, then the stream. ARGV: record TTL in seconds, then per answer its replay field, new id and
// record JSON. One answer's failure (a key of the wrong type) fails only its own.
const RECORD_SCRIPT = `
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
`;

/** Where an answer's id is kept for its replays: its idempotency record, under one field per question asked. */
export interface ReplaySlot {
  /** the Redis key of the answer's idempotency record */
  recordKey: string;
  /** verify, or one holder claim: the same key may answer both */
  field: string;
}

interface RecordRequest {
  answer: RecordedAnswer;
  slot: ReplaySlot;
}

type RecordReply = [verificationId: string, ttlMs: number];

/**
 * Replay ids this process has learnt, each until its idempotency record expires: a repeat (the commonest request,
 * a plain repeat under its derived key) then needs no Redis round trip of its own. An id never changes while its
 * record lives, so a remembered one is the one Redis holds. About 300 bytes each.
 */
const KNOWN_REPLAYS = 20_000;

/**
 * Records final answers (verify, verify-holder, the console's) before they leave: the record goes into the
 * evidence stream in Redis in the same step that keeps its id in the idempotency record, and the worker drains
 * the stream into PostgreSQL (EvidenceDrain). The answers of one event-loop turn share one script call.
 */
@Injectable()
export class EvidenceRecorder {
  private readonly ttlSeconds: number;
  private readonly records = perTurnLoader<RecordRequest, RecordReply>((requests) => this.runRecords(requests));
  private readonly known = new LRUCache<string, string>({ max: KNOWN_REPLAYS });

  constructor(
    private readonly redis: RedisStore,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.ttlSeconds = config.get('IDEMPOTENCY_TTL_SECONDS');
    redis.client.defineCommand('lvsRecordAnswers', { lua: RECORD_SCRIPT });
  }

  /**
   * The answer's verification id: a new one with its record, or, when this idempotency key already answered the
   * same question, the id it answered then, and no record.
   */
  async record(answer: RecordedAnswer, slot: ReplaySlot): Promise<string> {
    const knownAs = `${slot.recordKey}|${slot.field}`;
    const known = this.known.get(knownAs);
    if (known !== undefined) return known;
    const [verificationId, ttlMs] = await this.records.load({ answer, slot });
    if (ttlMs > 0) this.known.set(knownAs, verificationId, { ttl: ttlMs });
    return verificationId;
  }

  private runRecords(requests: readonly RecordRequest[]): Promise<(RecordReply | Error)[]> {
    const client = this.redis.client as unknown as {
      lvsRecordAnswers(keyCount: number, ...args: (string | number)[]): Promise<(RecordReply | Error)[]>;
    };
    const answeredAt = this.clock.now();
    const keys = requests.map(({ slot }) => slot.recordKey);
    const args = requests.flatMap(({ answer, slot }) => {
      const verificationId = randomUUID();
      return [slot.field, verificationId, JSON.stringify(recordOf(answer, verificationId, answeredAt))];
    });
    return client.lvsRecordAnswers(keys.length + 1, ...keys, evidenceStreamKey(this.redis), this.ttlSeconds, ...args);
  }
}

/** Where answers wait for the worker to write them into PostgreSQL. */
export function evidenceStreamKey(redis: RedisStore): string {
  return redis.key('evidence', 'records');
}
