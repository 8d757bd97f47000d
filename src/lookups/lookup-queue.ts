import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Queue, QueueEvents } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { RedisOutageLog } from '../logging/redis-outage-log';
import { blockingConnection, redisConnectionSettings } from '../redis/redis-clients';
import type { FinalResult, LookupJobResult, LookupStanding, LookupWait } from './lookup-outcome';
import { mustPark } from './fair-turns';
import { queueOfWorld, worldOfJob } from './lookup-world';
import type { NamedSubject } from './lookup-subject';
import { PARKED_PRIORITIES, ParkedPriority, PendingLookups } from './pending-lookups';
import { LOOKUP_JOB, LookupJobData, LookupPriority, REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE, lookupQueueOf, newLookupJobId } from './lookup-jobs';

const IN_FLIGHT_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

// How long a process trusts the waiting counts it read: the bound is coarse, so cold lookups share one read.
const WAITING_COUNT_LIFE_MS = 250;

/**
 * How long a parked lookup waits for the dispatcher before BullMQ releases it into the queue by itself:
 * longer than any fair backlog should take, so it only matters when the dispatcher lost the job
 * (see LookupDispatcher); then the lookup runs late rather than never.
 */
export const PARK_DELAY_MS = 3600_000;

/** Lookups waiting in the queue: the live ones (every queued job that is not a batch's or a re-check's), and all of them, parked ones included. */
export interface QueueWaitingCounts {
  live: number;
  all: number;
}

type JobQueue = Queue<LookupJobData, LookupJobResult>;

/**
 * The producer side of the lookup queues (the API, and the worker's re-checks): enqueue with single flight, and wait
 * through queue events. Live lookups go to the register's queue, test users' to the test queue (TEST_LOOKUP_QUEUE),
 * which its own worker drains without the register's limiter; a job's id names its queue (lookupQueueOf).
 */
@Injectable()
export class LookupQueue implements OnModuleInit, OnModuleDestroy {
  private events: QueueEvents<LookupJobResult>[] = [];
  private readonly finishListeners: ((jobId: string, outcome: 'completed' | 'failed') => void)[] = [];
  /** The requests waiting for each job (waitFor), told by the queue events' one 'completed' and one 'failed' listener. */
  private readonly waiters = new Map<string, Set<(outcome: LookupWait<LookupJobResult>) => void>>();
  /** The last read of each queue's waiting counts, by queue name. */
  private readonly waitingCountReads = new Map<string, { at: number; counts: Promise<QueueWaitingCounts> }>();
  /** Batch and re-check lookups kept in the queue itself: about a second of the register's budget. */
  readonly backgroundTarget: number;

  constructor(
    @InjectQueue(REGISTER_LOOKUP_QUEUE) private readonly queue: JobQueue,
    @InjectQueue(TEST_LOOKUP_QUEUE) private readonly testQueue: JobQueue,
    private readonly pending: PendingLookups,
    private readonly config: AppConfig,
    private readonly outages: RedisOutageLog,
  ) {
    this.backgroundTarget = config.get('REGISTER_MAX_PER_SECOND');
  }

  async onModuleInit(): Promise<void> {
    this.events = [this.queue, this.testQueue].map((queue) => {
      const events = new QueueEvents<LookupJobResult>(queue.name, {
        connection: blockingConnection(redisConnectionSettings(this.config)),
        prefix: queue.opts.prefix,
      });
      this.outages.watchQueue(events);
      events.on('completed', ({ jobId, returnvalue }) => this.finished(jobId, { state: 'completed', result: returnvalue }));
      events.on('failed', ({ jobId, failedReason }) => this.finished(jobId, { state: 'failed', reason: failedReason }));
      return events;
    });
    await Promise.all(this.events.map((events) => events.waitUntilReady()));
  }

  /** The queue that holds the job. */
  private holding(jobId: string): JobQueue {
    return lookupQueueOf(jobId) === TEST_LOOKUP_QUEUE ? this.testQueue : this.queue;
  }

  /** A job finished for good: the listeners hear of every job, the requests waiting for it get its outcome. */
  private finished(jobId: string, outcome: Exclude<LookupWait<LookupJobResult>, { state: 'pending' }>): void {
    this.finishListeners.forEach((listener) => listener(jobId, outcome.state));
    this.waiters.get(jobId)?.forEach((waiter) => waiter(outcome));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.events.map((events) => events.close()));
  }

  /** Called for every lookup job that completes or fails for good, whichever process ran or queued it. */
  onLookupFinished(listener: (jobId: string, outcome: 'completed' | 'failed') => void): void {
    this.finishListeners.push(listener);
  }

  /**
   * Adds a live lookup as job `jobId`, or joins the one already queued, parked or running for the subject: the
   * deduplication id makes at most one job per subject in flight, across all processes. Answers the id of the job
   * it waits on.
   */
  async enqueue(subject: NamedSubject, priority: LookupPriority, jobId: string, requestId?: string): Promise<string> {
    const { job, joined } = await this.add({ ...subject.job, ...(requestId ? { requestId } : {}) }, subject.flightId, priority, 0, jobId);
    // A joined job may wait behind this one's turn (another user's later lookup, a batch's or a re-check's): it is
    // lifted to this priority and out of a pending list, without making the caller wait for that (promoting a job
    // that is not parked fails, harmlessly).
    if (joined) {
      void this.holding(job.id!)
        .getJob(job.id!)
        .then(async (current) => {
          if (!current || current.opts.priority === undefined || current.opts.priority <= priority) return;
          await current.changePriority({ priority });
          await current.promote();
        })
        .catch(() => undefined);
    }
    return job.id!;
  }

  /**
   * Adds a background lookup (a batch row's, a re-check's, their name searches) for a user. While the queue has
   * room and the user has nothing parked (mustPark), it enters the queue at once. Otherwise it is parked (a
   * delayed job) and named in the user's pending list, from which LookupDispatcher moves it into the queue in the
   * user's turn. A lookup that joins the job in flight for the subject adds nothing to the user's list: the job
   * waits in its first owner's.
   */
  async enqueueFor(userId: string, subject: NamedSubject, priority: ParkedPriority, options: { refresh?: boolean } = {}): Promise<string> {
    const data = { ...subject.job, ...(options.refresh ? { refresh: true } : {}) };
    // Only a world whose lookups spend the register's budget parks them (WORLD_QUEUES): a test lookup enters at once.
    const park =
      queueOfWorld(worldOfJob(data)).parks && mustPark(await this.pending.parked(userId, priority), await this.queuedBackground(), this.backgroundTarget);
    const { job, joined } = await this.add(data, subject.flightId, priority, park ? PARK_DELAY_MS : 0, newLookupJobId(data));
    // A join onto a parked job that no list holds (its producer died between the add and the listing) would leave it
    // delayed for PARK_DELAY_MS: list it, so that the dispatcher promotes it in this user's turn.
    if (joined ? await job.isDelayed() : park) await this.pending.park(userId, priority, job.id!);
    return job.id!;
  }

  /**
   * Adds a job under an id of our own (newLookupJobId: it names the job's queue), so that an answer with another id
   * tells that the add joined the job already in flight for the number (deduplication) rather than creating one.
   */
  private async add(data: LookupJobData, deduplicationId: string, priority: LookupPriority, delay: number, jobId: string) {
    const job = await this.holding(jobId).add(LOOKUP_JOB, data, {
      jobId,
      priority,
      delay,
      deduplication: { id: deduplicationId },
      attempts: this.config.get('LOOKUP_ATTEMPTS'),
      backoff: { type: 'exponential', delay: this.config.get('LOOKUP_BACKOFF_MS'), jitter: 0.5 },
      removeOnComplete: { age: 3600, count: 10_000 },
      removeOnFail: { age: 24 * 3600, count: 10_000 },
    });
    if (!job.id) throw new Error('BullMQ returned a job without an id');
    return { job, joined: job.id !== jobId };
  }

  /** Moves parked jobs into the queue at their priority; a job no longer parked (joined, released, gone) is skipped. */
  async promote(jobIds: string[]): Promise<void> {
    await Promise.all(
      jobIds.map(async (jobId) => {
        const job = await this.holding(jobId).getJob(jobId);
        await job?.promote().catch(() => undefined);
      }),
    );
  }

  /** Removes a job that has not started: parked, or waiting out a retry's backoff. */
  async removeIfDelayed(jobId: string): Promise<void> {
    const job = await this.holding(jobId).getJob(jobId);
    if (job && (await job.isDelayed())) await job.remove().catch(() => undefined);
  }

  /** Live batch and re-check jobs queued for a worker, the ones the dispatcher keeps few. */
  queuedBackground(): Promise<number> {
    return this.queuedBackgroundIn(this.queue);
  }

  private async queuedBackgroundIn(queue: JobQueue): Promise<number> {
    const counts = await queue.getCountsPerPriority([...PARKED_PRIORITIES]);
    return PARKED_PRIORITIES.reduce((sum, priority) => sum + (counts[priority] ?? 0), 0);
  }

  /**
   * When the oldest of the first lookups in line was queued (epoch ms), null with none waiting: live lookups come
   * first in line, so a backlog shows there. Reads a bounded slice, so it costs the same however long the line.
   */
  async oldestWaitingSince(): Promise<number | null> {
    const jobs = await this.queue.getJobs(['waiting', 'prioritized'], 0, 99, true);
    return jobs.length === 0 ? null : Math.min(...jobs.map((job) => job.timestamp));
  }

  /** Where a job stands now, read once (no waiting). */
  async standing<Result extends LookupJobResult = FinalResult>(jobId: string): Promise<LookupStanding<Result>> {
    // State before job, as in waitFor: a job read first could finish before its state is read.
    const queue = this.holding(jobId);
    const state = await queue.getJobState(jobId);
    if (state !== 'completed' && state !== 'failed') return { state: state === 'unknown' ? 'missing' : 'pending' };
    const job = await queue.getJob(jobId);
    if (!job) return { state: 'missing' };
    return state === 'completed' ? { state, result: job.returnvalue as Result } : { state, reason: job.failedReason };
  }

  /** The waiting counts (QueueWaitingCounts) of one queue, the register's or the test one, read at most every WAITING_COUNT_LIFE_MS per process. */
  waitingCounts(queueName: typeof REGISTER_LOOKUP_QUEUE | typeof TEST_LOOKUP_QUEUE): Promise<QueueWaitingCounts> {
    const now = Date.now();
    let read = this.waitingCountReads.get(queueName);
    if (!read || now - read.at >= WAITING_COUNT_LIFE_MS) {
      const fresh = { at: now, counts: this.readWaitingCounts(queueName === TEST_LOOKUP_QUEUE ? this.testQueue : this.queue) };
      this.waitingCountReads.set(queueName, fresh);
      fresh.counts.catch(() => {
        if (this.waitingCountReads.get(queueName) === fresh) this.waitingCountReads.delete(queueName); // a failed read is not kept
      });
      read = fresh;
    }
    return read.counts;
  }

  /** Parked jobs are BullMQ's delayed ones, with the few retries that wait out their backoff. */
  private async readWaitingCounts(queue: JobQueue): Promise<QueueWaitingCounts> {
    const [{ waiting, prioritized, delayed }, background] = await Promise.all([
      queue.getJobCounts('waiting', 'prioritized', 'delayed'),
      this.queuedBackgroundIn(queue),
    ]);
    return { live: waiting + prioritized - background, all: waiting + prioritized + delayed };
  }

  async isInFlight(jobId: string): Promise<boolean> {
    return IN_FLIGHT_STATES.has(await this.holding(jobId).getJobState(jobId));
  }

  /** Waits up to timeoutMs for the job to finish, without polling. */
  waitFor<Result extends LookupJobResult = FinalResult>(jobId: string, timeoutMs: number): Promise<LookupWait<Result>> {
    return new Promise<LookupWait<Result>>((resolve, reject) => {
      let settled = false;
      const finish = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        const waiting = this.waiters.get(jobId);
        waiting?.delete(onFinished);
        if (waiting?.size === 0) this.waiters.delete(jobId);
        return true;
      };
      const settle = (outcome: LookupWait<Result>) => finish() && resolve(outcome);
      // The job's result is the one its processor returned for this kind of lookup.
      const onFinished = (outcome: LookupWait<LookupJobResult>) => settle(outcome as LookupWait<Result>);
      const timer = setTimeout(() => settle({ state: 'pending' }), timeoutMs);
      const waiting = this.waiters.get(jobId) ?? new Set();
      this.waiters.set(jobId, waiting.add(onFinished));
      // The job may have finished before we subscribed: look once, after subscribing. The state is
      // read before the job, so a job finishing in between is never taken for done without its value.
      const queue = this.holding(jobId);
      queue
        .getJobState(jobId)
        .then(async (state) => {
          if (state !== 'completed' && state !== 'failed') return;
          const job = await queue.getJob(jobId);
          if (!job) return settle({ state: 'pending' }); // removed meanwhile: a retry finds the cache
          if (state === 'completed') settle({ state: 'completed', result: job.returnvalue as Result });
          else settle({ state: 'failed', reason: job.failedReason });
        })
        .catch((error: unknown) => finish() && reject(error));
    });
  }
}
