import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Metrics } from '../metrics/metrics';
import { REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE } from './lookup-jobs';

/** Feeds the lookup queue gauges (live and test): counts are read from Redis when /metrics is scraped, never on the hot path. */
@Injectable()
export class LookupQueueDepth implements OnModuleInit {
  constructor(
    @InjectQueue(REGISTER_LOOKUP_QUEUE) private readonly queue: Queue,
    @InjectQueue(TEST_LOOKUP_QUEUE) private readonly testQueue: Queue,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    for (const [world, queue] of [
      ['live', this.queue],
      ['test', this.testQueue],
    ] as const) {
      this.metrics.readQueueCountsFrom(world, () => queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed'));
    }
  }
}
