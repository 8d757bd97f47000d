import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Result } from 'ioredis';
import { RedisStore } from '../redis/redis.module';
import { freeSlots, planDispatch } from './fair-turns';
import { LookupQueue } from './lookup-queue';
import { PARKED_PRIORITIES, ParkedPriority, PendingLookups } from './pending-lookups';

// Often enough that a newcomer's turn comes within a fraction of a second; each tick is a few Redis round trips.
const TICK_MS = 100;
// A dispatcher that stops renewing (crashed, frozen) hands over to another worker after this long.
const LEASE_MS = 3000;

/** Takes the lease for ARGV[1], or renews it when ARGV[1] holds it; 1 when the caller holds it now. KEYS: lease. */
const HOLD_LEASE = `
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

/** Gives the lease up when ARGV[1] holds it. KEYS: lease. */
const RELEASE_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    holdDispatchLease(lease: string, holder: string, leaseMs: number): Result<number, Context>;
    releaseDispatchLease(lease: string, holder: string): Result<number, Context>;
  }
}

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
    redis.client.defineCommand('holdDispatchLease', { numberOfKeys: 1, lua: HOLD_LEASE });
    redis.client.defineCommand('releaseDispatchLease', { numberOfKeys: 1, lua: RELEASE_LEASE });
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
    await this.redis.client.releaseDispatchLease(this.leaseKey, this.holder).catch(() => undefined);
  }

  /** One round: while holding the lease, tops the queue up to its target from the pending lists in turns. */
  async tick(): Promise<void> {
    const holding = (await this.redis.client.holdDispatchLease(this.leaseKey, this.holder, LEASE_MS)) === 1;
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
