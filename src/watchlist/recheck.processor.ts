import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Job, Queue, WorkerOptions } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { QueueWorker, workerConnection } from '../redis/queue-worker';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { LicenceMonitor } from './licence-monitor';
import { delaysOverTick, recheckBudgetPerSecond, recheckConcurrency } from './recheck-pace';
import {
  RECHECK_JOB,
  RecheckJobData,
  SUCCESSOR_JOB,
  SuccessorJobData,
  TICK_INTERVAL_MS,
  TICK_JOB,
  TICK_SCHEDULER_ID,
  WATCH_RECHECK_QUEUE,
  LIVE_WORLD,
} from './recheck.queue';

/**
 * Re-checks hold at most their share of the lookup slots, so live lookups never queue behind them,
 * and start at most their share of the register budget in any second (a limiter shared by every
 * worker through Redis), even when ticks run late and bunch up.
 */
function recheckWorkerOptions(config: AppConfig): WorkerOptions {
  const share = config.get('WATCH_MAX_REGISTER_SHARE');
  return {
    ...workerConnection(config),
    concurrency: recheckConcurrency(config.get('WORKER_CONCURRENCY'), share),
    limiter: { max: recheckBudgetPerSecond(config.get('REGISTER_MAX_PER_SECOND'), share), duration: 1000 },
  };
}

/**
 * Runs the re-check cycle in worker processes (provided only by WatchlistWorkerModule). A job
 * scheduler makes one tick per second for the whole deployment, whichever worker takes it; a tick
 * claims the numbers due and queues one re-check job each, which any worker may run. The tick also
 * resumes webhook deliveries held while their user was disabled.
 */
@Injectable()
export class RecheckProcessor extends QueueWorker<RecheckJobData | SuccessorJobData | Record<string, never>, void> implements OnApplicationBootstrap {
  constructor(
    @InjectQueue(WATCH_RECHECK_QUEUE) private readonly queue: Queue<RecheckJobData | SuccessorJobData | Record<string, never>>,
    private readonly monitor: LicenceMonitor,
    private readonly dispatcher: WebhookDispatcher,
    config: AppConfig,
  ) {
    super(WATCH_RECHECK_QUEUE, recheckWorkerOptions(config), config.get('SHUTDOWN_GRACE_MS'));
  }

  /** Every worker upserts the same scheduler: the first creates it, the others change nothing. */
  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(
      TICK_SCHEDULER_ID,
      { every: TICK_INTERVAL_MS },
      { name: TICK_JOB, data: {}, opts: { removeOnComplete: true, removeOnFail: { count: 100 } } },
    );
  }

  async process(job: Job<RecheckJobData | SuccessorJobData | Record<string, never>>): Promise<void> {
    if (job.name === TICK_JOB) {
      await this.dispatcher.resumeHeld();
      const due = await this.monitor.claimDue();
      const delays = delaysOverTick(due.length, TICK_INTERVAL_MS);
      await this.queue.addBulk(
        due.map(({ licenceNumber, world }, index) => ({
          name: RECHECK_JOB,
          data: { licenceNumber, world },
          // Behind ticks (which have no priority), so a busy cycle never delays the next claim.
          opts: { priority: 1, delay: delays[index], removeOnComplete: true, removeOnFail: { age: 86_400, count: 1000 } },
        })),
      );
      return;
    }
    if (job.name === RECHECK_JOB) {
      const { licenceNumber, world = LIVE_WORLD } = job.data as RecheckJobData;
      const followUp = await this.monitor.recheck(licenceNumber, world);
      if (followUp) {
        // The job carries the status events it held back: a failed run (a database blip) is run again, not lost.
        await this.queue.add(SUCCESSOR_JOB, followUp, {
          priority: 1,
          attempts: 3,
          backoff: { type: 'exponential', delay: 5000 },
          removeOnComplete: true,
          removeOnFail: { age: 86_400, count: 1000 },
        });
      }
    }
    if (job.name === SUCCESSOR_JOB) await this.monitor.followSuccessor(job.data as SuccessorJobData);
  }
}
