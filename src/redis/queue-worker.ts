import { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Job, Worker, WorkerOptions } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { blockingConnection, bullPrefix, redisConnectionSettings } from './redis-clients';

/** What every worker of the process shares: its own blocking connection and the queues' key prefix. */
export function workerConnection(config: AppConfig): Pick<WorkerOptions, 'connection' | 'prefix'> {
  return { connection: blockingConnection(redisConnectionSettings(config)), prefix: bullPrefix(config.get('REDIS_PREFIX')) };
}

/**
 * A queue's consumer, built with BullMQ's documented `new Worker(queue, processor, options)` when its module
 * initialises, from options its subclass computes out of AppConfig. @nestjs/bullmq's @Processor would take
 * those options at import time (a decorator argument, so read from the environment before validation), and
 * BullMQ lets only concurrency change after construction; the limiter, locks, backoff and the blocking
 * connection must be there when the Worker is made.
 */
export abstract class QueueWorker<Data, Result> implements OnModuleInit, OnApplicationShutdown {
  private consumer?: Worker<Data, Result>;

  protected constructor(
    private readonly queueName: string,
    private readonly options: WorkerOptions,
  ) {}

  /** `token` is the job's lock, for moving it (to delayed, for example) from inside the processor. */
  abstract process(job: Job<Data, Result>, token?: string): Promise<Result>;

  /** The BullMQ worker, from onModuleInit on. */
  get worker(): Worker<Data, Result> {
    if (!this.consumer) throw new Error(`The ${this.queueName} worker is built in onModuleInit`);
    return this.consumer;
  }

  onModuleInit(): void {
    this.consumer = new Worker<Data, Result>(this.queueName, (job, token) => this.process(job, token), this.options);
  }

  /** Closing twice is harmless: worker.ts closes the lookup worker itself, within its grace. */
  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
  }
}
