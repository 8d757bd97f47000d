import type { EntityManager } from 'typeorm';

/**
 * Which users exist, for the drain: auth's repository, as VerificationRecordsWorkerModule provides it.
 * A record of a user that no longer exists (deleted by delete-user) is dropped rather than written.
 */
export abstract class RecordOwners {
  /**
   * The ids among `userIds` of users that exist, each row held until the caller's transaction ends: a deletion of the
   * user under way is waited for, after which its id is not found, and one that starts later waits, then deletes
   * what the caller wrote.
   */
  abstract existingUsers(manager: EntityManager, userIds: string[]): Promise<string[]>;
}
