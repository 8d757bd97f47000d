import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { RedisStore } from '../redis/redis.module';
import { releaseEndpointLease, takeEndpointLease } from './endpoint-leases.script';
import { DeliveryJobData, WEBHOOK_DELIVERY_QUEUE } from './delivery.queue';
import { ENDPOINT_LEASE_MS, endpointKeyParts, MAX_IN_FLIGHT_PER_ENDPOINT } from './webhook-limits';

/**
 * The deliveries each endpoint has in flight, shared by every worker: at most MAX_IN_FLIGHT_PER_ENDPOINT,
 * each held for at most ENDPOINT_LEASE_MS (so a worker that dies frees its slot). A delivery that finds
 * no slot waits in the delayed set; the release of a slot wakes the oldest one at once.
 */
@Injectable()
export class EndpointLeases {
  constructor(
    private readonly redis: RedisStore,
    @InjectQueue(WEBHOOK_DELIVERY_QUEUE) private readonly queue: Queue<DeliveryJobData>,
  ) {}

  /** null when `holder` now holds a slot until release; else the milliseconds until the first slot's lease ends. */
  async take(userId: string, endpointId: string, holder: string): Promise<number | null> {
    const answer = await takeEndpointLease.run(
      this.redis.client,
      [this.key('in-flight', userId, endpointId), this.key('waiting', userId, endpointId)],
      [ENDPOINT_LEASE_MS, MAX_IN_FLIGHT_PER_ENDPOINT, holder],
    );
    return answer < 0 ? null : answer;
  }

  /** Frees the slot and wakes the oldest waiting delivery (one not delayed yet keeps its own delay). */
  async release(userId: string, endpointId: string, holder: string): Promise<void> {
    const waiting = await releaseEndpointLease.run(
      this.redis.client,
      [this.key('in-flight', userId, endpointId), this.key('waiting', userId, endpointId)],
      [holder],
    );
    if (waiting === null) return;
    const job = await this.queue.getJob(waiting);
    await job?.promote().catch(() => undefined); // not delayed (any more): nothing to wake
  }

  private key(purpose: 'in-flight' | 'waiting', userId: string, endpointId: string): string {
    return this.redis.key(...endpointKeyParts(purpose, userId, endpointId));
  }
}
