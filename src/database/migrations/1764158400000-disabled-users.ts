import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stopping a partner (`npm run keys -- disable-user`): users.disabled_at, set while the user is stopped.
 * Its keys answer 401, its watch entries are neither re-checked nor charged, and its webhook deliveries
 * are held: webhook_deliveries.held_at marks one that came due while its user was disabled, so that it
 * is sent once the user is enabled again. Nothing is deleted.
 */
export class DisabledUsers1764158400000 implements MigrationInterface {
  name = 'DisabledUsers1764158400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users ADD COLUMN disabled_at timestamptz`);
    await queryRunner.query(`ALTER TABLE webhook_deliveries ADD COLUMN held_at timestamptz`);
    // The worker looks for held deliveries every second; the index holds only those, so that look is cheap.
    await queryRunner.query(`CREATE INDEX webhook_deliveries_held ON webhook_deliveries (endpoint_id) WHERE held_at IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX webhook_deliveries_held`);
    await queryRunner.query(`ALTER TABLE webhook_deliveries DROP COLUMN held_at`);
    await queryRunner.query(`ALTER TABLE users DROP COLUMN disabled_at`);
  }
}
