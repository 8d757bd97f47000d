import { MigrationInterface, QueryRunner } from 'typeorm';

/** A user's own bound on its live lookups waiting for the register (keys set-live-limit); null follows USER_MAX_LIVE_LOOKUPS. */
export class UserLiveLookupLimit1795946557000 implements MigrationInterface {
  name = 'UserLiveLookupLimit1795946557000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users ADD COLUMN live_lookup_limit integer CHECK (live_lookup_limit > 0)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users DROP COLUMN live_lookup_limit`);
  }
}
