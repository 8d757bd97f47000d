import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Queue, QueueEvents } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { RedisOutageLog } from '../logging/redis-outage-log';
import { blockingConnection, redisConnectionSettings } from '../redis/redis-clients';
import type { FinalResult } from './lookup-outcome';
import {
  LOOKUP_JOB,
  LOOKUP_PRIORITY,
  LookupJobData,
  LookupJobResult,
  LookupPriority,
  NameSearchJobData,
  REGISTER_LOOKUP_QUEUE,
} from './lookups.queue';

export type LookupWait<Result extends LookupJobResult = FinalResult> =
  | { state: 'completed'; result: Result }
  | { state: 'failed'; reason: string | undefined }
  | { state: 'pending' };

/** A job's standing as stored, for callers that only kept its id; `missing` once it was removed. */
export type LookupStanding<Result extends LookupJobResult = FinalResult> = LookupWait<Result> | { state: 'missing' };

const IN_FLIGHT_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

// How long a process trusts the waiting count it read: the bound is coarse, so cold lookups share one read.
const WAITING_COUNT_LIFE_MS = 250;

/** The producer side of the lookup queue (the API, and the worker's re-checks): enqueue with single flight, and wait through queue events. */
@Injectable()
export class LookupQueue implements OnModuleInit, OnModuleDestroy {
  private events!: QueueEvents;
  private readonly finishListeners: ((jobId: string, outcome: 'completed' | 'failed') => void)[] = [];
  private waitingCountRead: { at: number; count: Promise<number> } | null = null;

  constructor(
    @InjectQueue(REGISTER_LOOKUP_QUEUE) private readonly queue: Queue<LookupJobData, LookupJobResult>,
    private readonly config: AppConfig,
    private readonly outages: RedisOutageLog,
  ) {}

  async onModuleInit(): Promise<void> {
    this.events = new QueueEvents(REGISTER_LOOKUP_QUEUE, {
      connection: blockingConnection(redisConnectionSettings(this.config)),
      prefix: this.queue.opts.prefix,
    });
    // One listener pair per waiting request: thousands are expected, none is a leak.
    this.events.setMaxListeners(0);
    this.outages.watchQueue(this.events);
    this.events.on('completed', ({ jobId }) => this.finishListeners.forEach((listener) => listener(jobId, 'completed')));
    this.events.on('failed', ({ jobId }) => this.finishListeners.forEach((listener) => listener(jobId, 'failed')));
    await this.events.waitUntilReady();
  }

  /** QueueEvents also emits `completed:<jobId>` and `failed:<jobId>`, which its typings do not list. */
  private get jobEvents(): NodeJS.EventEmitter {
    return this.events as unknown as NodeJS.EventEmitter;
  }

  async onModuleDestroy(): Promise<void> {
    await this.events?.close();
  }

  /** Called for every lookup job that completes or fails for good, whichever process ran or queued it. */
  onLookupFinished(listener: (jobId: string, outcome: 'completed' | 'failed') => void): void {
    this.finishListeners.push(listener);
  }

  /**
   * Adds a lookup, or joins the one already queued or running for the number: the
   * deduplication id makes at most one job per number in flight, across all processes.
   */
  async enqueue(
    licenceNumber: string,
    priority: LookupPriority = LOOKUP_PRIORITY.liveVerify,
    options: { refresh?: boolean; requestId?: string } = {},
  ): Promise<string> {
    const data = { licenceNumber, requestId: options.requestId, ...(options.refresh ? { refresh: true } : {}) };
    return this.add(data, licenceNumber, priority);
  }

  /**
   * Adds a name search, or joins the one in flight for the same search (by its digest, so that no name or date of
   * birth is part of a job id). The prefix keeps a digest from ever meeting a licence number's deduplication id.
   */
  enqueueNameSearch(search: Omit<NameSearchJobData, 'kind'>, priority: LookupPriority = LOOKUP_PRIORITY.liveVerify): Promise<string> {
    return this.add({ kind: 'name', ...search }, `name:${search.searchKey}`, priority);
  }

  private async add(data: LookupJobData, deduplicationId: string, priority: LookupPriority): Promise<string> {
    const job = await this.queue.add(LOOKUP_JOB, data, {
      priority,
      deduplication: { id: deduplicationId },
      attempts: this.config.get('LOOKUP_ATTEMPTS'),
      backoff: { type: 'exponential', delay: this.config.get('LOOKUP_BACKOFF_MS'), jitter: 0.5 },
      removeOnComplete: { age: 3600, count: 10_000 },
      removeOnFail: { age: 24 * 3600, count: 10_000 },
    });
    if (!job.id) throw new Error('BullMQ returned a job without an id');
    // The lookup may have joined a batch's waiting job: a live one lifts it to its own priority,
    // without making the caller wait for that (BullMQ cannot say whether the add joined a job).
    if (priority === LOOKUP_PRIORITY.liveVerify) void job.changePriority({ priority }).catch(() => undefined);
    return job.id;
  }

  /** Where a job stands now, read once (no waiting). */
  async standing<Result extends LookupJobResult = FinalResult>(jobId: string): Promise<LookupStanding<Result>> {
    // State before job, as in waitFor: a job read first could finish before its state is read.
    const state = await this.queue.getJobState(jobId);
    if (state !== 'completed' && state !== 'failed') return { state: state === 'unknown' ? 'missing' : 'pending' };
    const job = await this.queue.getJob(jobId);
    if (!job) return { state: 'missing' };
    return state === 'completed' ? { state, result: job.returnvalue as Result } : { state, reason: job.failedReason };
  }

  /** Jobs waiting for a worker (plain and prioritised), read at most every WAITING_COUNT_LIFE_MS per process. */
  waitingCount(): Promise<number> {
    const now = Date.now();
    if (!this.waitingCountRead || now - this.waitingCountRead.at >= WAITING_COUNT_LIFE_MS) {
      const read = { at: now, count: this.queue.getJobCountByTypes('waiting', 'prioritized') };
      this.waitingCountRead = read;
      read.count.catch(() => {
        if (this.waitingCountRead === read) this.waitingCountRead = null; // a failed read is not kept
      });
    }
    return this.waitingCountRead.count;
  }

  async isInFlight(jobId: string): Promise<boolean> {
    return IN_FLIGHT_STATES.has(await this.queue.getJobState(jobId));
  }

  /** Waits up to timeoutMs for the job to finish, without polling. */
  waitFor<Result extends LookupJobResult = FinalResult>(jobId: string, timeoutMs: number): Promise<LookupWait<Result>> {
    return new Promise<LookupWait<Result>>((resolve, reject) => {
      const completedEvent = `completed:${jobId}`;
      const failedEvent = `failed:${jobId}`;
      let settled = false;
      const finish = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        this.jobEvents.off(completedEvent, onCompleted);
        this.jobEvents.off(failedEvent, onFailed);
        return true;
      };
      const settle = (outcome: LookupWait<Result>) => finish() && resolve(outcome);
      const onCompleted = ({ returnvalue }: { returnvalue: unknown }) => settle({ state: 'completed', result: returnvalue as Result });
      const onFailed = ({ failedReason }: { failedReason: string }) => settle({ state: 'failed', reason: failedReason });
      const timer = setTimeout(() => settle({ state: 'pending' }), timeoutMs);
      this.jobEvents.on(completedEvent, onCompleted);
      this.jobEvents.on(failedEvent, onFailed);
      // The job may have finished before we subscribed: look once, after subscribing. The state is
      // read before the job, so a job finishing in between is never taken for done without its value.
      this.queue
        .getJobState(jobId)
        .then(async (state) => {
          if (state !== 'completed' && state !== 'failed') return;
          const job = await this.queue.getJob(jobId);
          if (!job) return settle({ state: 'pending' }); // removed meanwhile: a retry finds the cache
          if (state === 'completed') settle({ state: 'completed', result: job.returnvalue as Result });
          else settle({ state: 'failed', reason: job.failedReason });
        })
        .catch((error: unknown) => finish() && reject(error));
    });
  }
}
