import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { RedisStore } from '../redis/redis.module';
import { holdDispatchLease, releaseDispatchLease } from './dispatch-lease.script';
import { freeSlots, planDispatch } from './fair-turns';
import { LookupQueue } from './lookup-queue';
import { PARKED_PRIORITIES, ParkedPriority, PendingLookups } from './pending-lookups';

// Often enough that a newcomer's turn comes within a fraction of a second; each tick is a few Redis round trips.
const TICK_MS = 100;
// A dispatcher that stops renewing (crashed, frozen) hands over to another worker after this long.
const LEASE_MS = 3000;

/**
 * Feeds parked lookups (batch rows, re-checks) from the users' pending lists into the lookup queue, the users
 * taking turns within each priority (planDispatch), and only as many as keep about one second of the
 * register's budget queued: a newcomer's lookups wait behind that second, never behind a whole roster.
 * Every worker runs one; a lease lets one dispatch at a time, and passes to another when its holder stops.
 * A job is promoted before its id leaves the list, so a dispatcher that dies between the two leaves an id
 * that the next one skips, never a lookup that nobody moves.
 */
@Injectable()
export class LookupDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('LookupDispatcher');
  /** names the process, so that an operator reading the lease sees which worker dispatches */
  private readonly holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  private holding = false;
  private readonly leaseKey: string;
  /** per priority, the user served last: the next tick starts after them */
  private readonly lastServed = new Map<ParkedPriority, string | null>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;

  constructor(
    private readonly lookups: LookupQueue,
    private readonly pending: PendingLookups,
    private readonly redis: RedisStore,
  ) {
    this.leaseKey = redis.key('pending-dispatcher');
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      // A slow tick (Redis lagging) is not overlapped by the next one.
      if (this.running) return;
      this.running = this.tick()
        .catch((error: unknown) => this.logger.warn(`Dispatching parked lookups failed: ${(error as Error).message}`))
        .finally(() => (this.running = null));
    }, TICK_MS).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    // Another worker takes over at once rather than after the lease's life.
    await releaseDispatchLease.run(this.redis.client, [this.leaseKey], [this.holder]).catch(() => undefined);
  }

  /** One round: while holding the lease, tops the queue up to its target from the pending lists in turns. */
  async tick(): Promise<void> {
    const holding = (await holdDispatchLease.run(this.redis.client, [this.leaseKey], [this.holder, LEASE_MS])) === 1;
    if (holding !== this.holding) this.logger.debug(holding ? 'Dispatching parked lookups (lease taken)' : 'Another worker dispatches parked lookups now');
    this.holding = holding;
    if (!holding) {
      this.lastServed.clear();
      return;
    }
    const slots = freeSlots(await this.lookups.queuedBackground(), this.lookups.backgroundTarget);
    if (slots === 0) return;
    const pending = await Promise.all(PARKED_PRIORITIES.map(async (priority) => ({ priority, users: await this.pending.users(priority) })));
    await Promise.all(
      pending.flatMap(({ priority, users }) => users.filter((user) => user.pending === 0).map((user) => this.pending.dropIfEmpty(user.userId, priority))),
    );
    for (const { priority, turns, lastServed } of planDispatch(pending, this.lastServed, slots)) {
      this.lastServed.set(priority, lastServed);
      await Promise.all(
        turns.map(async ({ userId, count }) => {
          const jobIds = await this.pending.peek(userId, priority, count);
          await this.lookups.promote(jobIds);
          await this.pending.remove(userId, priority, jobIds.length);
        }),
      );
    }
  }
}
