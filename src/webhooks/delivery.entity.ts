import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

/** One event to one endpoint; every try is a DeliveryAttempt. */
@Entity({ name: 'webhook_deliveries' })
export class Delivery {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId!: string;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ type: 'text' })
  status!: DeliveryStatus;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Set when it came due while its user was disabled: no attempt made, sent again once the user is enabled. */
  @Column({ name: 'held_at', type: 'timestamptz', nullable: true })
  heldAt!: Date | null;
}

@Entity({ name: 'webhook_attempts' })
export class DeliveryAttempt {
  @PrimaryColumn({ name: 'delivery_id', type: 'uuid' })
  deliveryId!: string;

  @PrimaryColumn({ type: 'integer' })
  attempt!: number;

  @Column({ name: 'attempted_at', type: 'timestamptz' })
  attemptedAt!: Date;

  /** null when no answer came (timeout, refused connection, blocked address) */
  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus!: number | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;
}
