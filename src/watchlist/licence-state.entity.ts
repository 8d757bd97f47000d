import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { FinalResult } from '../lookups/lookup-outcome';

/** The last known register answer for one watched number, shared by every user watching it. */
@Entity({ name: 'licence_states' })
export class LicenceState {
  @PrimaryColumn({ name: 'licence_number', type: 'char', length: 16 })
  licenceNumber!: string;

  /** null until the first re-check */
  @Column({ type: 'jsonb', nullable: true })
  result!: FinalResult | null;

  @Column({ name: 'checked_at', type: 'timestamptz', nullable: true })
  checkedAt!: Date | null;

  @Column({ name: 'last_changed_at', type: 'timestamptz', nullable: true })
  lastChangedAt!: Date | null;

  /** when the number is due again; claiming moves it a cycle ahead */
  @Column({ name: 'next_check_at', type: 'timestamptz' })
  nextCheckAt!: Date;

  /** when the last watcher left (null while watched): the state is deleted a retention period later */
  @Column({ name: 'unwatched_since', type: 'timestamptz', nullable: true })
  unwatchedSince!: Date | null;

  /** expiry warnings (days) already sent for the current expiry date */
  @Column({ name: 'expiry_warnings', type: 'integer', array: true })
  expiryWarnings!: number[];
}
