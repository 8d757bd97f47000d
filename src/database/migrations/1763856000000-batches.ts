import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Roster checks: batches, their items, and quota_charge_many, which charges a batch's distinct
 * numbers all or nothing.
 *
 * quota_charge_many takes its locks in the order quota_charge_once does (the charge rows first,
 * in licence number order, then the user's counter row), so the two never deadlock. It inserts the
 * numbers not yet charged this period, then raises the counter by their count only if that fits
 * the quota; when it does not, it deletes the rows it just inserted before the statement ends, so
 * a refused batch leaves no trace. It returns how many numbers were new and how many remained.
 */
export class Batches1763856000000 implements MigrationInterface {
  name = 'Batches1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE batches (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('RUNNING', 'COMPLETED')),
        total integer NOT NULL CHECK (total BETWEEN 1 AND 1000),
        idempotency_key text,
        request_hash char(64) NOT NULL,
        created_at timestamptz NOT NULL,
        completed_at timestamptz
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX batches_user_idempotency_key ON batches (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX batches_user_newest ON batches (user_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX batches_created_at ON batches (created_at)`);
    await queryRunner.query(`CREATE INDEX batches_running ON batches (created_at) WHERE status = 'RUNNING'`);
    await queryRunner.query(`
      CREATE TABLE batch_items (
        batch_id uuid NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
        index integer NOT NULL CHECK (index >= 1),
        licence_number char(16) NOT NULL,
        reference text CHECK (char_length(reference) <= 100),
        status text NOT NULL CHECK (status IN ('FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS', 'PENDING', 'ERROR')),
        error_code text,
        licence jsonb,
        checked_at timestamptz,
        job_id text,
        PRIMARY KEY (batch_id, index)
      )`);
    await queryRunner.query(`CREATE INDEX batch_items_pending_job ON batch_items (job_id) WHERE status = 'PENDING'`);
    await queryRunner.query(`
      CREATE FUNCTION quota_charge_many(p_user uuid, p_period char(7), p_licences char(16)[], p_quota integer,
                                        OUT charged char(16)[], OUT needed integer, OUT remaining integer)
      LANGUAGE plpgsql AS $$
      DECLARE
        v_used integer;
      BEGIN
        WITH inserted AS (
          INSERT INTO quota_charges (user_id, period, licence_number)
          SELECT p_user, p_period, number FROM (SELECT DISTINCT unnest(p_licences) AS number) numbers ORDER BY number
          ON CONFLICT DO NOTHING
          RETURNING licence_number
        )
        SELECT coalesce(array_agg(licence_number), '{}') INTO charged FROM inserted;
        needed := cardinality(charged);
        IF needed > 0 AND (p_quota IS NULL OR needed <= p_quota) THEN
          INSERT INTO quota_usage AS u (user_id, period, used)
          VALUES (p_user, p_period, needed)
          ON CONFLICT (user_id, period) DO UPDATE SET used = u.used + needed
          WHERE p_quota IS NULL OR u.used + needed <= p_quota
          RETURNING u.used INTO v_used;
        ELSIF needed = 0 THEN
          SELECT used INTO v_used FROM quota_usage WHERE user_id = p_user AND period = p_period;
          v_used := coalesce(v_used, 0);
        END IF;
        IF v_used IS NULL THEN
          DELETE FROM quota_charges WHERE user_id = p_user AND period = p_period AND licence_number = ANY (charged);
          charged := '{}';
          SELECT used INTO v_used FROM quota_usage WHERE user_id = p_user AND period = p_period;
          remaining := greatest(p_quota - coalesce(v_used, 0), 0);
          RETURN;
        END IF;
        remaining := CASE WHEN p_quota IS NULL THEN NULL ELSE greatest(p_quota - v_used, 0) END;
      END
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION quota_charge_many(uuid, char, char[], integer)`);
    await queryRunner.query(`DROP TABLE batch_items`);
    await queryRunner.query(`DROP TABLE batches`);
  }
}
