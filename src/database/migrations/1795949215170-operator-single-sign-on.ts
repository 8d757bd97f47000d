import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operators who sign in through the organisation's OpenID provider (issue 42, OPERATOR_OIDC_*): sso_joined_at is
 * when single sign-on first let them in. Such an operator may have no password or second factor here, and counts
 * as active as one whose second factor is confirmed.
 */
export class OperatorSingleSignOn1795949215170 implements MigrationInterface {
  name = 'OperatorSingleSignOn1795949215170';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE operators ADD COLUMN sso_joined_at timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE operators DROP COLUMN sso_joined_at`);
  }
}
