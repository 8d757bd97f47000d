import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * People of a partner's account (src/members, issue 41). An invited member has a role and an invitation (its token
 * only as a SHA-256 hash) and no password; joining sets the password's argon2id hash and the TOTP secret (sealed
 * like webhook secrets), and the first confirmed code makes it active. A removed member keeps its row, with
 * removed_at, so that the records it made still name a person; its e-mail address may then be invited again. The
 * TOTP step of the last code used refuses that code a second time; a second factor being reset waits, sealed, in
 * totp_pending_secret until its first code is confirmed. Members go with their user (delete-user).
 */
export class Members1765411200000 implements MigrationInterface {
  name = 'Members1765411200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE members (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        email text NOT NULL CHECK (email = lower(email)),
        display_name text,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'compliance', 'viewer')),
        status text NOT NULL CHECK (status IN ('invited', 'active', 'disabled')),
        password_hash text,
        totp_secret text,
        totp_last_step integer,
        totp_pending_secret text,
        recovery_code_hashes text[] NOT NULL DEFAULT '{}',
        invitation_hash char(64) UNIQUE,
        invitation_expires_at timestamptz,
        invited_at timestamptz NOT NULL DEFAULT now(),
        joined_at timestamptz,
        last_sign_in_at timestamptz,
        removed_at timestamptz
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX members_user_email ON members (user_id, email) WHERE removed_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE members`);
  }
}
