import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type BatchStatus = 'RUNNING' | 'COMPLETED';

/** One roster check: its items are in batch_items. Deleted with its items after BATCH_RETENTION_DAYS. */
@Entity({ name: 'batches' })
export class Batch {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  status!: BatchStatus;

  @Column({ type: 'integer' })
  total!: number;

  /** the client's Idempotency-Key, unique per user */
  @Column({ name: 'idempotency_key', type: 'text', nullable: true })
  idempotencyKey!: string | null;

  /** SHA-256 of the request's items: the same key with other items is refused */
  @Column({ name: 'request_hash', type: 'char', length: 64 })
  requestHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
