import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The activity log (src/activity). Each user's events form a hash chain in seq order; activity_chains holds the
 * chain's head (its newest seq, hash and time), the row every append locks, so that appends of one user take turns,
 * each later than the one before, and the head tells when newest events went missing. Both go with their user (delete-user).
 */
export class ActivityLog1765065600000 implements MigrationInterface {
  name = 'ActivityLog1765065600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE activity_chains (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        last_seq bigint NOT NULL,
        last_hash char(64) NOT NULL,
        last_at timestamptz
      )`);
    await queryRunner.query(`
      CREATE TABLE activity_events (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        seq bigint NOT NULL,
        occurred_at timestamptz NOT NULL,
        actor_type text NOT NULL,
        actor_id text,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text NOT NULL,
        client_address text,
        user_agent text,
        changes jsonb NOT NULL,
        previous_hash char(64) NOT NULL,
        hash char(64) NOT NULL,
        CONSTRAINT activity_events_user_seq UNIQUE (user_id, seq)
      )`);
    await queryRunner.query(`CREATE INDEX activity_events_user_newest ON activity_events (user_id, occurred_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX activity_events_occurred_at ON activity_events (occurred_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE activity_events`);
    await queryRunner.query(`DROP TABLE activity_chains`);
  }
}
