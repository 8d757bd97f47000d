import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operators' passkeys and their disabling (issue 42's open points). A passkey is stored as members' are
 * (member_passkeys): the credential's id, public key, counter and transports, with the name the operator gave it,
 * never anything secret; it goes with its operator. disabled_at: since when an operator may not sign in (an
 * `operator` disabled them, or the admin command did); an operator removed is deleted, and the operators' log keeps
 * who it was.
 */
export class OperatorPasskeysAndStatus1795960000000 implements MigrationInterface {
  name = 'OperatorPasskeysAndStatus1795960000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE operator_passkeys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        operator_id uuid NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
        credential_id text NOT NULL UNIQUE,
        public_key bytea NOT NULL,
        counter bigint NOT NULL DEFAULT 0,
        transports text[] NOT NULL DEFAULT '{}',
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX operator_passkeys_operator ON operator_passkeys (operator_id)`);
    await queryRunner.query(`ALTER TABLE operators ADD COLUMN disabled_at timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE operators DROP COLUMN disabled_at`);
    await queryRunner.query(`DROP TABLE operator_passkeys`);
  }
}
