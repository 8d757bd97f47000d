import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test mode: a user's test side is a user row of its own, mode 'test', tied to its live user. Everything a test key
 * makes (usage, batches, watchlists, webhooks, events, records) is keyed by that row, so no query that reads one
 * user's rows can reach the other side's; deleting the live user deletes its test side.
 */
export class TestMode1764806400000 implements MigrationInterface {
  name = 'TestMode1764806400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users ADD COLUMN mode text NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'))`);
    await queryRunner.query(`ALTER TABLE users ADD COLUMN live_user_id uuid UNIQUE REFERENCES users (id) ON DELETE CASCADE`);
    await queryRunner.query(
      `ALTER TABLE users ADD CONSTRAINT users_test_side_has_live_user CHECK ((mode = 'test') = (live_user_id IS NOT NULL))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users DROP CONSTRAINT users_test_side_has_live_user`);
    await queryRunner.query(`ALTER TABLE users DROP COLUMN live_user_id`);
    await queryRunner.query(`ALTER TABLE users DROP COLUMN mode`);
  }
}
