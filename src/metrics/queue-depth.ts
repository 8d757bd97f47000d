import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { Queue } from 'bullmq';
import { REGISTER_LOOKUP_QUEUE } from '../lookups/lookups.queue';
import { Metrics } from './metrics';

/** Feeds the queue gauge: counts are read from Redis when /metrics is scraped, never on the hot path. */
@Injectable()
export class QueueDepth implements OnModuleInit {
  constructor(
    @InjectQueue(REGISTER_LOOKUP_QUEUE) private readonly queue: Queue,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    this.metrics.readQueueCountsFrom(() => this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed'));
  }
}
