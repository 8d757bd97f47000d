import type { KeyMode } from '../auth/key-mode';
import { LookupJobData, REGISTER_LOOKUP_QUEUE, subjectId, TEST_LOOKUP_QUEUE } from './lookup-jobs';

/**
 * Whose register answers a lookup: the live register (REGISTER_URL), or one test user's built-in test register. Chosen
 * once per lookup, from the user's side in the API and from the job in the worker; everything that differs between
 * the two (the register surface, the gate, the cache's namespace, the queue) is picked from it here, so callers never ask.
 */
export type LookupWorld = { side: 'live' } | { side: 'test'; testUserId: string };

/** The live register's world, one for every live user. */
export const LIVE_WORLD: LookupWorld = { side: 'live' };

/** The world of a user's lookups: a test side's own test register, or the live one. */
export function worldOfUser(userId: string, mode: KeyMode): LookupWorld {
  return mode === 'test' ? { side: 'test', testUserId: userId } : LIVE_WORLD;
}

/** The world a queued job was asked in: its job data names a test user, or none. */
export function worldOfJob(job: LookupJobData): LookupWorld {
  return job.testUserId === undefined ? LIVE_WORLD : { side: 'test', testUserId: job.testUserId };
}

/** Picks the world's own thing (a surface, a gate) from one of each; the test one made for the test user. */
export function forWorld<Live, Test>(world: LookupWorld, choices: { live: Live; test: (testUserId: string) => Test }): Live | Test {
  return world.side === 'live' ? choices.live : choices.test(world.testUserId);
}

/**
 * How a world's lookups queue, decided here once for each world so that no queue or worker asks a job for its user:
 * the queue its jobs go to, whether that queue's worker keeps the register's pace (the global limiter), and whether
 * a background lookup (a batch row's, a re-check's) may be parked for its user's turn (fair-turns.ts). Only lookups
 * that spend the register's budget wait for a turn: a test user's enter its queue at once.
 */
export interface WorldQueue {
  name: typeof REGISTER_LOOKUP_QUEUE | typeof TEST_LOOKUP_QUEUE;
  paced: boolean;
  parks: boolean;
}

/** Each world's queue, one per side: every test user's lookups share the test queue. */
export const WORLD_QUEUES: Readonly<Record<LookupWorld['side'], WorldQueue>> = {
  live: { name: REGISTER_LOOKUP_QUEUE, paced: true, parks: true },
  test: { name: TEST_LOOKUP_QUEUE, paced: false, parks: false },
};

/** The queue of the world's lookups (WORLD_QUEUES). */
export function queueOfWorld(world: LookupWorld): WorldQueue {
  return WORLD_QUEUES[world.side];
}

/** A lookup's names in its world: its cache key's parts (after the Redis prefix), its single-flight id, its job. */
export interface WorldNames {
  cacheKey: string[];
  flightId: string;
  job: LookupJobData;
}

/**
 * Where the world keeps a lookup. The live register's results are shared by every live user, by register (after a
 * change of REGISTER_URL no old answer is served as the new register's) and subject. A test user's are its own,
 * apart from the register's and every other user's (their own cache entries and single flight, never joined with a
 * live lookup), so that a simulated change reaches only that user; its job carries the user to the test queue.
 */
export function worldNames(world: LookupWorld, job: LookupJobData, register: string): WorldNames {
  const id = subjectId(job);
  if (world.side === 'test') {
    return { cacheKey: ['test-result', world.testUserId, id], flightId: `test:${world.testUserId}:${id}`, job: { ...job, testUserId: world.testUserId } };
  }
  const cacheKey = job.kind === 'name' ? ['name-result', register, job.searchKey] : ['result', register, job.licenceNumber];
  return { cacheKey, flightId: id, job };
}
