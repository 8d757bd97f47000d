import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { ReadinessProbe } from '../health/readiness-probe';
import type { RegisterDrift } from '../health/register-health';
import { RegisterBreaker } from './breaker/register-breaker';
import { CanaryStore } from './canary-store';
import { REGISTER_LOOKUP_QUEUE, TEST_LOOKUP_QUEUE } from './lookup-jobs';
import { PageShapeStore } from './page-shape-store';

/** The lookup pipeline's part of GET /health/ready: its queues' connections answer, the breaker's phase, and the register's drift (canaries, page shapes). */
@Injectable()
export class LookupReadiness extends ReadinessProbe {
  constructor(
    @InjectQueue(REGISTER_LOOKUP_QUEUE) private readonly queue: Queue,
    @InjectQueue(TEST_LOOKUP_QUEUE) private readonly testQueue: Queue,
    private readonly breaker: RegisterBreaker,
    private readonly canaries: CanaryStore,
    private readonly pageShapes: PageShapeStore,
  ) {
    super();
  }

  async pingQueue(): Promise<void> {
    await Promise.all([this.queue, this.testQueue].map((queue) => queue.getJobCountByTypes('waiting')));
  }

  async registerBreakerPhase(): Promise<string> {
    return (await this.breaker.state()).phase;
  }

  async registerDrift(): Promise<RegisterDrift> {
    const [canary, pageShape] = await Promise.all([this.canaries.drifted(), this.pageShapes.drifted()]);
    return { canary, pageShape };
  }
}
