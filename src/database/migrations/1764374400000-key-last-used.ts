import { MigrationInterface, QueryRunner } from 'typeorm';

/** When each API key was last used, to the minute, for the partner's list of keys (GET /v1/keys). */
export class KeyLastUsed1764374400000 implements MigrationInterface {
  name = 'KeyLastUsed1764374400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys DROP COLUMN last_used_at`);
  }
}
