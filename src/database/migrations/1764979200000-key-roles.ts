import { MigrationInterface, QueryRunner } from 'typeorm';

/** Key roles (src/auth/key-role.ts). Every existing key becomes admin, which is what it could do before. */
export class KeyRoles1764979200000 implements MigrationInterface {
  name = 'KeyRoles1764979200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE api_keys ADD COLUMN role text NOT NULL DEFAULT 'admin'
        CONSTRAINT api_keys_role_check CHECK (role IN ('admin', 'developer', 'compliance', 'viewer'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys DROP COLUMN role`);
  }
}
