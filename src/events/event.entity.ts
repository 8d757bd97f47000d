import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One event for one user: the feed, and what webhooks deliver. Kept 30 days. */
@Entity({ name: 'events' })
export class MonitoringEvent {
  /** feed order and cursor */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  seq!: string;

  /** sent as webhook-id */
  @Column({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
