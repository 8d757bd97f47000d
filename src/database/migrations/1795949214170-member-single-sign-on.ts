import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Single sign-on of a partner's members through their own OpenID Connect provider (issue 41): one row per account
 * (its live user), with the provider's issuer, the client id, the client secret sealed like webhook secrets, the
 * e-mail domains whose people may sign in, the role a person signing in for the first time is given, and whether
 * sign-in without it is refused. A domain belongs to one account at most; the service checks it under an advisory
 * lock (a domain is one of an array's items, which no unique index covers). The row goes with its user.
 */
export class MemberSingleSignOn1795949214170 implements MigrationInterface {
  name = 'MemberSingleSignOn1795949214170';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE member_sso (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        issuer text NOT NULL,
        client_id text NOT NULL,
        client_secret text NOT NULL,
        domains text[] NOT NULL,
        new_member_role text NOT NULL CHECK (new_member_role IN ('admin', 'developer', 'compliance', 'viewer')),
        required boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX member_sso_domains ON member_sso USING gin (domains)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE member_sso`);
  }
}
