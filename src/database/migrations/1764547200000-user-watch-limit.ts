import { MigrationInterface, QueryRunner } from 'typeorm';

/** A user's own cap on its watchlist's entries (keys set-watch-limit); null follows WATCH_MAX_ENTRIES_PER_USER. */
export class UserWatchLimit1764547200000 implements MigrationInterface {
  name = 'UserWatchLimit1764547200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users ADD COLUMN watch_limit integer CHECK (watch_limit >= 0)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users DROP COLUMN watch_limit`);
  }
}
