import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operators' log (src/operator-console): every change an operator makes to a partner's account, from the console
 * or the admin command, with who, from where and why. It names the partner by id and by its name at the time. It does
 * not go with the partner, but forgets it: a deletion leaves the partner's entries (the deletion's own among them)
 * with no id, name or target of it, only partner_ref, the SHA-256 of its id, which whoever holds the id can match.
 */
export class OperatorActions1765238400000 implements MigrationInterface {
  name = 'OperatorActions1765238400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE operator_actions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        actor_type text NOT NULL CHECK (actor_type IN ('operator', 'cli')),
        actor_id text NOT NULL,
        source text,
        action text NOT NULL,
        user_id uuid,
        partner_ref char(64),
        partner_name text,
        target_type text NOT NULL,
        target_id text NOT NULL,
        reason text CHECK (char_length(reason) <= 500),
        changes jsonb NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX operator_actions_newest ON operator_actions (occurred_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX operator_actions_partner ON operator_actions (user_id, occurred_at DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE operator_actions`);
  }
}
