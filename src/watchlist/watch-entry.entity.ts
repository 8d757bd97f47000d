import type { FinalResult } from '../lookups/lookup-outcome';
import { Column, Entity, PrimaryColumn } from 'typeorm';

export type WatchState = 'ACTIVE' | 'PAUSED';

/** One number on one user's watchlist. */
@Entity({ name: 'watch_entries' })
export class WatchEntry {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @PrimaryColumn({ name: 'licence_number', type: 'char', length: 16 })
  licenceNumber!: string;

  @Column({ type: 'text', nullable: true })
  reference!: string | null;

  @Column({ name: 'added_at', type: 'timestamptz' })
  addedAt!: Date;

  @Column({ type: 'text' })
  state!: WatchState;

  /** QUOTA_EXCEEDED while paused */
  @Column({ name: 'paused_reason', type: 'text', nullable: true })
  pausedReason!: string | null;

  /** the number's state as of the pause, shown while paused */
  @Column({ name: 'paused_result', type: 'jsonb', nullable: true })
  pausedResult!: FinalResult | null;

  @Column({ name: 'paused_checked_at', type: 'timestamptz', nullable: true })
  pausedCheckedAt!: Date | null;

  @Column({ name: 'paused_last_changed_at', type: 'timestamptz', nullable: true })
  pausedLastChangedAt!: Date | null;

  /** the holder's names, {firstName, surname}, when the partner gave them */
  @Column({ type: 'jsonb', nullable: true })
  holder!: { firstName: string; surname: string } | null;

  /** the holder's date of birth, sealed under the first key of HOLDER_DATA_KEYS and bound to its row; never stored in clear */
  @Column({ name: 'date_of_birth_sealed', type: 'text', nullable: true })
  dateOfBirthSealed!: string | null;

  @Column({ name: 'follow_successor', type: 'boolean', default: false })
  followSuccessor!: boolean;

  @Column({ name: 'successor_licence_number', type: 'char', length: 16, nullable: true })
  successorLicenceNumber!: string | null;
}
