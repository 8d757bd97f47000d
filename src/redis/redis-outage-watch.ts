import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { QueueBase } from 'bullmq';
import { RedisOutageLog } from '../logging/redis-outage-log';
import { QueueWorker } from './queue-worker';

/**
 * Watches every BullMQ queue, queue-events and worker object of the process for Redis errors: each
 * module that registers the queue gets its own instance, and an instance without an 'error' listener
 * prints a stack trace per failed reconnect.
 */
@Injectable()
export class RedisOutageWatch implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly outages: RedisOutageLog,
  ) {}

  onApplicationBootstrap(): void {
    for (const { instance } of this.discovery.getProviders()) {
      if (instance instanceof QueueBase) this.outages.watchQueue(instance);
      if (instance instanceof QueueWorker) this.outages.watchQueue(instance.worker);
    }
  }
}
