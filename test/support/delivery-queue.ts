import { Queue } from 'bullmq';
import { WEBHOOK_DELIVERY_QUEUE } from '../../src/webhooks/delivery.queue';
import type { TestApp } from './test-app';
import { until } from './until';

/**
 * Waits until the webhook delivery queue holds no job that could still make an attempt (none waiting, delayed,
 * prioritized or active): the positive signal that every delivery queued so far has ended, its retries included,
 * before a test asserts that no further attempt came.
 */
export async function deliveriesSettled(t: TestApp, timeoutMs = 20_000): Promise<void> {
  // The test's own client: it reaches the queue's keys on every topology (see TestApp.redis).
  const queue = new Queue(WEBHOOK_DELIVERY_QUEUE, { connection: t.redis, prefix: `${t.redisPrefix}:bull` });
  try {
    await until(
      () => queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active', 'waiting-children'),
      (counts) => Object.values(counts).every((count) => count === 0),
      timeoutMs,
    );
  } finally {
    await queue.close();
  }
}
