import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../auth/user.entity';

/** How many distinct licence numbers a user has been charged for in one period. */
@Entity({ name: 'quota_usage' })
@Check('quota_usage_used_not_negative', '"used" >= 0')
export class QuotaUsage {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'quota_usage_user_id_fkey' })
  user?: User;

  /** YYYY-MM */
  @PrimaryColumn({ type: 'char', length: 7 })
  period!: string;

  @Column({ type: 'integer', default: 0 })
  used!: number;
}
