import { Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
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
export class RedisOutageWatch implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly outages: RedisOutageLog,
  ) {}

  /**
   * Queues connect as soon as they are made, and the other modules' start-up (migrations, scripts) can outlast a
   * socket deadline on a busy machine: they are watched from the first module hook, not once the app has started.
   */
  onModuleInit(): void {
    for (const { instance } of this.discovery.getProviders()) if (instance instanceof QueueBase) this.outages.watchQueue(instance);
  }

  /** Workers are made in their own onModuleInit. */
  onApplicationBootstrap(): void {
    for (const { instance } of this.discovery.getProviders()) if (instance instanceof QueueWorker) this.outages.watchQueue(instance.worker);
  }
}
