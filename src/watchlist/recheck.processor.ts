import { InjectQueue, WorkerHost } from '@nestjs/bullmq';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Job, Queue } from 'bullmq';
import { LicenceMonitor } from './licence-monitor';
import { delaysOverTick } from './recheck-pace';
import { RECHECK_JOB, RecheckJobData, TICK_INTERVAL_MS, TICK_JOB, TICK_SCHEDULER_ID, WATCH_RECHECK_QUEUE } from './recheck.queue';

/**
 * Runs the re-check cycle in worker processes (decorated with @Processor by WorkerModule). A job
 * scheduler makes one tick per second for the whole deployment, whichever worker takes it; a tick
 * claims the numbers due and queues one re-check job each, which any worker may run.
 */
@Injectable()
export class RecheckProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    @InjectQueue(WATCH_RECHECK_QUEUE) private readonly queue: Queue<RecheckJobData | Record<string, never>>,
    private readonly monitor: LicenceMonitor,
  ) {
    super();
  }

  /** Every worker upserts the same scheduler: the first creates it, the others change nothing. */
  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(
      TICK_SCHEDULER_ID,
      { every: TICK_INTERVAL_MS },
      { name: TICK_JOB, data: {}, opts: { removeOnComplete: true, removeOnFail: { count: 100 } } },
    );
  }

  async process(job: Job<RecheckJobData | Record<string, never>>): Promise<void> {
    if (job.name === TICK_JOB) {
      const due = await this.monitor.claimDue();
      const delays = delaysOverTick(due.length, TICK_INTERVAL_MS);
      await this.queue.addBulk(
        due.map((licenceNumber, index) => ({
          name: RECHECK_JOB,
          data: { licenceNumber },
          // Behind ticks (which have no priority), so a busy cycle never delays the next claim.
          opts: { priority: 1, delay: delays[index], removeOnComplete: true, removeOnFail: { age: 86_400, count: 1000 } },
        })),
      );
      return;
    }
    if (job.name === RECHECK_JOB) await this.monitor.recheck((job.data as RecheckJobData).licenceNumber);
  }
}
