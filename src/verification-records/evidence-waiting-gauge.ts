import { Injectable, OnModuleInit } from '@nestjs/common';
import { Metrics } from '../metrics/metrics';
import { RedisStore } from '../redis/redis.module';
import { redisTimeMs, streamEntryAgeSeconds } from './evidence-lag';
import { evidenceStreamKey } from './evidence-recorder';

type StreamEntry = [id: string, fields: string[]];

/** The age of the oldest record waiting in Redis for the drain, by Redis's clock; 0 with none (the gauge, the lag alert). */
export async function evidenceOldestWaitingSeconds(redis: RedisStore): Promise<number> {
  const [entries, time] = await Promise.all([
    redis.client.xrange(evidenceStreamKey(redis), '-', '+', 'COUNT', 1) as Promise<StreamEntry[]>,
    redis.client.time(),
  ]);
  return entries.length === 0 ? 0 : streamEntryAgeSeconds(entries[0][0], redisTimeMs(time));
}

/**
 * Feeds the evidence gauge: the age of the oldest record the workers have not yet drained, read from Redis when
 * /metrics is scraped. The API exports it too, since a stream nobody drains is the very case to see.
 */
@Injectable()
export class EvidenceWaitingGauge implements OnModuleInit {
  constructor(
    private readonly redis: RedisStore,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    this.metrics.readEvidenceWaitingFrom(() => evidenceOldestWaitingSeconds(this.redis));
  }
}
