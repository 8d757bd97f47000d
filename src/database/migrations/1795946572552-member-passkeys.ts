import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Members' passkeys and password resets (issue 41). A passkey is a WebAuthn credential: its id (base64url), public
 * key (COSE), signature counter and transports, with the name the member gave it; never anything secret. It goes with
 * its member. A password reset waits on the member's row: its token only as a SHA-256 hash, until its expiry.
 */
export class MemberPasskeys1795946572552 implements MigrationInterface {
  name = 'MemberPasskeys1795946572552';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE member_passkeys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        member_id uuid NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        credential_id text NOT NULL UNIQUE,
        public_key bytea NOT NULL,
        counter bigint NOT NULL DEFAULT 0,
        transports text[] NOT NULL DEFAULT '{}',
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX member_passkeys_member ON member_passkeys (member_id)`);
    await queryRunner.query(`ALTER TABLE members ADD COLUMN password_reset_hash char(64) UNIQUE, ADD COLUMN password_reset_expires_at timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE members DROP COLUMN password_reset_hash, DROP COLUMN password_reset_expires_at`);
    await queryRunner.query(`DROP TABLE member_passkeys`);
  }
}
