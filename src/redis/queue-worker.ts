import { BeforeApplicationShutdown, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Job, Worker, WorkerOptions } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { activeTracing } from '../tracing/tracing';
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
export abstract class QueueWorker<Data, Result> implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly shutdownLog = new Logger('Shutdown');
  private consumer?: Worker<Data, Result>;
  private closing?: { startedAt: number; finished: Promise<void> };

  protected constructor(
    private readonly queueName: string,
    private readonly options: WorkerOptions,
    private readonly shutdownGraceMs: number,
  ) {}

  /** `token` is the job's lock, for moving it (to delayed, for example) from inside the processor. */
  abstract process(job: Job<Data, Result>, token?: string): Promise<Result>;

  /** The BullMQ worker, from onModuleInit on. */
  get worker(): Worker<Data, Result> {
    if (!this.consumer) throw new Error(`The ${this.queueName} worker is built in onModuleInit`);
    return this.consumer;
  }

  onModuleInit(): void {
    this.consumer = new Worker<Data, Result>(this.queueName, (job, token) => this.process(job, token), {
      ...this.options,
      // With tracing on, each job is a span, a child of the context its producer sent with it.
      telemetry: activeTracing()?.queueTelemetry,
    });
  }

  /**
   * The first step of the shutdown: every worker of the process stops taking jobs at once, and one grace counts for
   * all. Closing waits for the active jobs, so it is awaited only in beforeApplicationShutdown, before any client
   * or pool those jobs use closes (onApplicationShutdown).
   */
  onModuleDestroy(): void {
    if (!this.consumer) return;
    this.closing = { startedAt: Date.now(), finished: this.consumer.close() };
  }

  /** The active jobs finish within the grace; past it, they go to another worker once their locks expire. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.consumer || !this.closing) return;
    const graceLeft = Math.max(0, this.closing.startedAt + this.shutdownGraceMs - Date.now());
    const finished = await Promise.race([this.closing.finished.then(() => true), sleep(graceLeft, false, { ref: false })]);
    if (finished) {
      this.shutdownLog.log(`Active jobs of ${this.queueName} finished in ${Date.now() - this.closing.startedAt} ms`);
      return;
    }
    this.shutdownLog.warn(
      `Grace of ${this.shutdownGraceMs} ms is over: jobs of ${this.queueName} still active go to another worker after their lock expires`,
    );
    await this.consumer.close(true);
  }
}
