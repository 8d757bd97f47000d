import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { perTurnLoader } from '../redis/per-turn-loader';
import { RedisStore } from '../redis/redis.module';
import { recordAnswers, RecordReply } from './answer-records.script';
import { answerFingerprint, RecordedAnswer, recordOf, VerificationRecord } from './verification-record';

/** Where an answer's id is kept for its replays: its idempotency record, under one field per question asked. */
export interface ReplaySlot {
  /** the Redis key of the answer's idempotency record */
  recordKey: string;
  /** verify, or one holder claim: the same key may answer both */
  field: string;
}

interface RecordRequest {
  answer: RecordedAnswer;
  fingerprint: string;
  slot: ReplaySlot;
}

/**
 * Replay ids this process has learnt, each for one answer until its idempotency record expires: a repeat (the
 * commonest request, a plain repeat under its derived key) then needs no Redis round trip of its own. A remembered
 * id is for that answer only, and its record is that answer, whatever the slot holds now. About 350 bytes each.
 */
const KNOWN_REPLAYS = 20_000;

/**
 * How many of the newest waiting records a read looks through. A drain further behind than this is an outage of its
 * own (its alert fires at 60 s); the bound keeps a read of an unknown id cheap whatever the backlog.
 */
const WAITING_READ_LIMIT = 2000;

type StreamEntry = [id: string, fields: string[]];

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
  }

  /**
   * The answer's verification id: a new one with its record, or, when this idempotency key already gave this very
   * answer (answerFingerprint) to the same question, the id it gave then, and no record. A different answer (a new
   * lookup, a changed cache entry) is never given an id whose record says something else.
   */
  async record(answer: RecordedAnswer, slot: ReplaySlot): Promise<string> {
    const fingerprint = answerFingerprint(answer);
    const knownAs = `${slot.recordKey}|${slot.field}|${fingerprint}`;
    const known = this.known.get(knownAs);
    if (known !== undefined) return known;
    const [verificationId, ttlMs] = await this.records.load({ answer, fingerprint, slot });
    if (ttlMs > 0) this.known.set(knownAs, verificationId, { ttl: ttlMs });
    return verificationId;
  }

  /**
   * A record not yet moved to PostgreSQL, from the newest end of the stream, so that an answer's id is readable,
   * with its receipt, from the moment the answer leaves; undefined when none of the newest waiting records is it.
   */
  async findWaiting(userId: string, verificationId: string): Promise<VerificationRecord | undefined> {
    const entries = (await this.redis.client.xrevrange(evidenceStreamKey(this.redis), '+', '-', 'COUNT', WAITING_READ_LIMIT)) as StreamEntry[];
    for (const [, fields] of entries) {
      if (!fields[1].includes(verificationId)) continue;
      const record = JSON.parse(fields[1]) as VerificationRecord;
      if (record.verificationId === verificationId && record.userId === userId) return record;
    }
    return undefined;
  }

  private runRecords(requests: readonly RecordRequest[]): Promise<(RecordReply | Error)[]> {
    const answeredAt = this.clock.now();
    const keys = requests.map(({ slot }) => slot.recordKey);
    const args = requests.flatMap(({ answer, fingerprint, slot }) => {
      const verificationId = randomUUID();
      return [slot.field, fingerprint, verificationId, JSON.stringify(recordOf(answer, verificationId, answeredAt))];
    });
    return recordAnswers.run(this.redis.client, [...keys, evidenceStreamKey(this.redis)], [this.ttlSeconds, ...args]);
  }
}

/** Where answers wait for the worker to write them into PostgreSQL. */
export function evidenceStreamKey(redis: RedisStore): string {
  return redis.key('evidence', 'records');
}
