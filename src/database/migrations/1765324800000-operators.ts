import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The service's operators (src/operator-console): people who sign in to the operator console with a password and
 * TOTP. The password only as its argon2id hash, the TOTP secret sealed, recovery codes and the invitation token only
 * as hashes. Until the second factor is set up (totp_confirmed_at), the invitation is still open.
 */
export class Operators1765324800000 implements MigrationInterface {
  name = 'Operators1765324800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE operators (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL UNIQUE CHECK (email = lower(email)),
        display_name text NOT NULL,
        role text NOT NULL CHECK (role IN ('operator', 'support')),
        password_hash text,
        totp_secret text,
        totp_confirmed_at timestamptz,
        totp_last_step bigint,
        recovery_code_hashes text[] NOT NULL DEFAULT '{}',
        invitation_hash char(64) UNIQUE,
        invitation_expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_sign_in_at timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE operators`);
  }
}
