import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Charges that can be told apart, and data that does not outlive its use.
 *
 * quota_charges.charge_id names the charge that made a row. The caller chooses it before the charge (so that
 * it can record what to refund before anything is committed), and a refund deletes the row only while it still
 * carries that id: a late or repeated refund of an earlier charge of the same number, refunded and charged again
 * since, no longer removes the newer charge. Rows charged before this migration keep a null id, which is what
 * refunds of their charges ask for.
 *
 * licence_states.unwatched_since is when the number's last watcher left, so that its state (holder names
 * included) can be deleted a retention period later. watch_entries.paused_* hold an entry's state as of its pause:
 * a paused entry shows that, not what later re-checks paid for by other users found.
 */
export class ChargeIdsAndDataLifetime1764244800000 implements MigrationInterface {
  name = 'ChargeIdsAndDataLifetime1764244800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE quota_charges ADD COLUMN charge_id uuid`);
    await queryRunner.query(`DROP FUNCTION quota_charge_once(uuid, char, char, integer)`);
    await queryRunner.query(`
      CREATE FUNCTION quota_charge_once(p_user uuid, p_period char(7), p_licence char(16), p_quota integer, p_charge_id uuid)
      RETURNS text LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO quota_charges (user_id, period, licence_number, charge_id)
        VALUES (p_user, p_period, p_licence, p_charge_id)
        ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN
          RETURN 'repeat';
        END IF;
        IF p_quota IS NOT NULL AND p_quota <= 0 THEN
          DELETE FROM quota_charges WHERE user_id = p_user AND period = p_period AND licence_number = p_licence;
          RETURN 'refused';
        END IF;
        INSERT INTO quota_usage AS u (user_id, period, used)
        VALUES (p_user, p_period, 1)
        ON CONFLICT (user_id, period) DO UPDATE SET used = u.used + 1
        WHERE p_quota IS NULL OR u.used < p_quota;
        IF NOT FOUND THEN
          DELETE FROM quota_charges WHERE user_id = p_user AND period = p_period AND licence_number = p_licence;
          RETURN 'refused';
        END IF;
        RETURN 'charged';
      END
      $$`);
    await queryRunner.query(`DROP FUNCTION quota_charge_many(uuid, char, char[], integer)`);
    await queryRunner.query(`
      CREATE FUNCTION quota_charge_many(p_user uuid, p_period char(7), p_licences char(16)[], p_quota integer, p_charge_id uuid,
                                        OUT charged char(16)[], OUT needed integer, OUT remaining integer)
      LANGUAGE plpgsql AS $$
      DECLARE
        v_used integer;
      BEGIN
        WITH inserted AS (
          INSERT INTO quota_charges (user_id, period, licence_number, charge_id)
          SELECT p_user, p_period, number, p_charge_id FROM (SELECT DISTINCT unnest(p_licences) AS number) numbers ORDER BY number
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
    await queryRunner.query(`ALTER TABLE licence_states ADD COLUMN unwatched_since timestamptz`);
    await queryRunner.query(`CREATE INDEX licence_states_unwatched ON licence_states (unwatched_since) WHERE unwatched_since IS NOT NULL`);
    // States nobody watches today start their retention now.
    await queryRunner.query(`
      UPDATE licence_states s SET unwatched_since = now()
      WHERE NOT EXISTS (SELECT 1 FROM watch_entries w WHERE w.licence_number = s.licence_number)`);
    await queryRunner.query(`
      ALTER TABLE watch_entries
        ADD COLUMN paused_result jsonb,
        ADD COLUMN paused_checked_at timestamptz,
        ADD COLUMN paused_last_changed_at timestamptz`);
    await queryRunner.query(`
      UPDATE watch_entries w SET paused_result = s.result, paused_checked_at = s.checked_at, paused_last_changed_at = s.last_changed_at
      FROM licence_states s WHERE s.licence_number = w.licence_number AND w.state = 'PAUSED'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE watch_entries DROP COLUMN paused_result, DROP COLUMN paused_checked_at, DROP COLUMN paused_last_changed_at`);
    await queryRunner.query(`ALTER TABLE licence_states DROP COLUMN unwatched_since`);
    // The earlier signatures come back as charges without an id (what earlier code refunds); the nullable
    // column stays, since the functions that write it do.
    await queryRunner.query(`
      CREATE FUNCTION quota_charge_once(p_user uuid, p_period char(7), p_licence char(16), p_quota integer)
      RETURNS text LANGUAGE sql AS $$ SELECT quota_charge_once(p_user, p_period, p_licence, p_quota, NULL) $$`);
    await queryRunner.query(`
      CREATE FUNCTION quota_charge_many(p_user uuid, p_period char(7), p_licences char(16)[], p_quota integer,
                                        OUT charged char(16)[], OUT needed integer, OUT remaining integer)
      LANGUAGE sql AS $$ SELECT * FROM quota_charge_many(p_user, p_period, p_licences, p_quota, NULL) $$`);
  }
}
