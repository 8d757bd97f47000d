import { KeyMode } from './key-mode';
import { Check, Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** The account whose quota its API keys spend. Constraint names are PostgreSQL's, as the migrations made them. */
@Entity({ name: 'users' })
@Check('users_monthly_quota_check', '"monthly_quota" >= 0')
@Check('users_rate_limit_per_second_check', '"rate_limit_per_second" > 0')
@Check('users_watch_limit_check', '"watch_limit" >= 0')
@Check('users_live_lookup_limit_check', '"live_lookup_limit" > 0')
@Check('users_mode_check', `"mode" IN ('live', 'test')`)
@Check('users_test_side_has_live_user', `("mode" = 'test') = ("live_user_id" IS NOT NULL)`)
@Unique('users_live_user_id_key', ['liveUserId'])
export class User {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  /** Verifications allowed per period; null means an unlimited plan. */
  @Column({ name: 'monthly_quota', type: 'integer', nullable: true })
  monthlyQuota!: number | null;

  /** Requests per second for the partner routes (burst twice that); null follows RATE_LIMIT_PER_SECOND and _BURST. */
  @Column({ name: 'rate_limit_per_second', type: 'integer', nullable: true })
  rateLimitPerSecond!: number | null;

  /** Entries its watchlist may hold; null follows WATCH_MAX_ENTRIES_PER_USER. */
  @Column({ name: 'watch_limit', type: 'integer', nullable: true })
  watchLimit!: number | null;

  /** Live lookups it may have waiting for the register at once; null follows USER_MAX_LIVE_LOOKUPS. */
  @Column({ name: 'live_lookup_limit', type: 'integer', nullable: true })
  liveLookupLimit!: number | null;

  /** Set while the user is stopped (keys disable-user): keys refused, monitoring and webhooks held. */
  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt!: Date | null;

  /** 'test': the test side of the live user live_user_id, reached only with its lvs_test_ keys (docs/api.md, Test mode). */
  @Column({ type: 'text', default: 'live' })
  mode!: KeyMode;

  @Column({ name: 'live_user_id', type: 'uuid', nullable: true })
  liveUserId!: string | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'live_user_id', foreignKeyConstraintName: 'users_live_user_id_fkey' })
  liveUser?: User;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
