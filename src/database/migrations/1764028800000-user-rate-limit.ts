import { MigrationInterface, QueryRunner } from 'typeorm';

/** A user's own request rate (per second) for the partner routes; null follows RATE_LIMIT_PER_SECOND. */
export class UserRateLimit1764028800000 implements MigrationInterface {
  name = 'UserRateLimit1764028800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users ADD COLUMN rate_limit_per_second integer CHECK (rate_limit_per_second > 0)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users DROP COLUMN rate_limit_per_second`);
  }
}
