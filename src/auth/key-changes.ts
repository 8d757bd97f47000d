import { Injectable } from '@nestjs/common';
import { RedisBroadcasts } from '../redis/redis-broadcasts';

const CHANNEL = 'key-changes';

/**
 * Tells every API process that a user's keys or plan changed (a new key, revocation, quota, rate, disabled or
 * enabled), so that each drops what it cached about that user's keys at once, and nothing else. A process that is
 * disconnected when a change is sent falls back to the cache's TTL.
 */
@Injectable()
export class KeyChanges {
  constructor(private readonly broadcasts: RedisBroadcasts) {}

  /** Call after the change is committed, or a process could cache the old state again. */
  async publish(userId: string): Promise<void> {
    await this.broadcasts.publish(CHANNEL, userId);
  }

  /**
   * Calls onChange with the user id of every change. onConnected runs at every (re)connection,
   * because messages sent while this process was disconnected are lost.
   */
  async subscribe(onChange: (userId: string) => void, onConnected: () => void): Promise<void> {
    await this.broadcasts.subscribe(CHANNEL, onChange, onConnected);
  }
}
