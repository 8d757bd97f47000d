import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { KeyRole } from './key-role';
import { User } from './user.entity';

/** An API key, stored only as a SHA-256 hash of the plain key. Constraint and index names are the migrations'. */
@Entity({ name: 'api_keys' })
@Check('api_keys_role_check', `"role" IN ('admin', 'developer', 'compliance', 'viewer')`)
@Index('api_keys_user_id', ['userId'])
@Index('api_keys_created_by', ['createdByKeyId'], { where: '"created_by_key_id" IS NOT NULL' })
export class ApiKey {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'api_keys_user_id_fkey' })
  user?: User;

  @Column({ type: 'text' })
  name!: string;

  @Index('api_keys_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash!: string;

  /** The first characters of the key, so an operator can tell keys apart without the secret. */
  @Column({ name: 'key_prefix', type: 'text' })
  keyPrefix!: string;

  /** What the key may do (key-role.ts); admin for every key made before roles. */
  @Column({ type: 'text', default: 'admin' })
  role!: KeyRole;

  /** The key that issued this one through POST /v1/keys or the console; null for a key the operator issued. */
  @Column({ name: 'created_by_key_id', type: 'uuid', nullable: true })
  createdByKeyId!: string | null;

  @ManyToOne(() => ApiKey, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'created_by_key_id', foreignKeyConstraintName: 'api_keys_created_by_key_id_fkey' })
  createdByKey?: ApiKey;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  /** Written at most once a minute per key (KeyUseRecorder), so it is accurate to the minute. */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
