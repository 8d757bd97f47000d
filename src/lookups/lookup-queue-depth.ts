import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Metrics } from '../metrics/metrics';
import { REGISTER_LOOKUP_QUEUE } from './lookups.queue';

/** Feeds the lookup queue gauge: counts are read from Redis when /metrics is scraped, never on the hot path. */
@Injectable()
export class LookupQueueDepth implements OnModuleInit {
  constructor(
    @InjectQueue(REGISTER_LOOKUP_QUEUE) private readonly queue: Queue,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    this.metrics.readQueueCountsFrom(() => this.queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed'));
  }
}
