import type { RegisterLicence } from '@lvs/register';
import type { LicenceChange } from './detect-changes';

/** Watchlist re-checks, run only by worker processes. */
export const WATCH_RECHECK_QUEUE = 'watch-recheck';
/** Every second (a BullMQ job scheduler: one tick per second across all workers) claims the numbers now due. */
export const TICK_JOB = 'tick';
export const TICK_SCHEDULER_ID = 'watch-recheck-tick';
export const TICK_INTERVAL_MS = 1000;
/** One claimed number: re-check it and tell its watchers what changed. */
export const RECHECK_JOB = 'recheck';

/** The world whose state of a number a re-check settles: the live one (LIVE_WORLD), or one test user's id. */
export const LIVE_WORLD = '00000000-0000-0000-0000-000000000000';

/** A number claimed in a world (jobs queued before worlds existed carry none: the live one). */
export interface RecheckJobData {
  licenceNumber: string;
  world?: string;
}

/**
 * A watched licence stopped being Active: look for its holder's successor with one name search. A job of the re-check
 * queue, so that its search counts against the re-check share of the register budget like a re-check.
 */
export const SUCCESSOR_JOB = 'successor';

/** What the re-check found, and the change events it held back until the successor search has answered. */
export interface SuccessorJobData {
  licenceNumber: string;
  world?: string;
  previous: RegisterLicence;
  current: RegisterLicence | null;
  withheld: LicenceChange[];
}

/** How long a re-check waits for its lookup before leaving it to the next cycle. */
export const RECHECK_LOOKUP_WAIT_MS = 120_000;
