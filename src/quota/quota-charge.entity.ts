import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One licence number charged to one user in one period: the key that makes repeats free. */
@Entity({ name: 'quota_charges' })
export class QuotaCharge {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  /** YYYY-MM */
  @PrimaryColumn({ type: 'char', length: 7 })
  period!: string;

  @PrimaryColumn({ name: 'licence_number', type: 'char', length: 16 })
  licenceNumber!: string;

  @CreateDateColumn({ name: 'charged_at', type: 'timestamptz' })
  chargedAt!: Date;

  /** The charge that made the row, so that a refund removes that charge and never a later one (null: older rows) */
  @Column({ name: 'charge_id', type: 'uuid', nullable: true })
  chargeId!: string | null;
}
