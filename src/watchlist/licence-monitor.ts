import { Injectable } from '@nestjs/common';
import { ChangeRecorder } from './change-recorder';
import { DueNumbers } from './due-numbers';
import { RecheckLookups } from './recheck-lookups';
import type { SuccessorJobData } from './recheck.queue';
import { SuccessorFollower } from './successor-follower';
import { WatcherCharges } from './watcher-charges';

/**
 * The worker's side of monitoring, as the re-check queue's jobs ask it: claims the numbers due for a re-check,
 * re-checks each one once for all its watchers through the one lookup queue, and follows a successor when a
 * licence stopped being Active. Each step is a class of its own; this one puts a re-check's steps in order.
 */
@Injectable()
export class LicenceMonitor {
  constructor(
    private readonly dueNumbers: DueNumbers,
    private readonly charges: WatcherCharges,
    private readonly recheckLookups: RecheckLookups,
    private readonly recorder: ChangeRecorder,
    private readonly successors: SuccessorFollower,
  ) {}

  /** The numbers due now, each leased for a cycle (DueNumbers). */
  claimDue(): Promise<string[]> {
    return this.dueNumbers.claim();
  }

  /**
   * One re-check of one number for every user watching it. Returns the successor search to make when the licence
   * stopped being Active (its status events wait for that search's answer), else null.
   */
  async recheck(licenceNumber: string): Promise<SuccessorJobData | null> {
    const active = await this.charges.settle(licenceNumber);
    if (active.length === 0) return null; // every watcher is paused: no lookup, no charge
    // The lookup takes the first paying watcher's turn: one user's many watched numbers wait in their own list.
    const [first] = active;
    const result = await this.recheckLookups.currentResult(licenceNumber, { userId: first.userId, monthlyQuota: first.monthlyQuota }, first.checkedAt);
    return result ? this.recorder.record(licenceNumber, result, active) : null;
  }

  /** After a watched licence stopped being Active: its successor search and what follows (SuccessorFollower). */
  followSuccessor(job: SuccessorJobData): Promise<void> {
    return this.successors.follow(job);
  }
}
