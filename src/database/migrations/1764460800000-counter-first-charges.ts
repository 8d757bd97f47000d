import { MigrationInterface, QueryRunner } from 'typeorm';
import { CHARGE_MANY_NAMING_THE_CHARGE, CHARGE_ONCE_NAMING_THE_CHARGE } from './1764244800000-charge-ids-and-data-lifetime';

/**
 * Every charge and refund locks its user's counter row (quota_usage) before any of the user's number rows
 * (quota_charges), and a statement that charges several users locks their counters in one order (user, period).
 * With one lock order everywhere, one statement can charge all the numbers of one event-loop turn, many per
 * user, without deadlocking: before, a user's charges of one turn needed one transaction each, and a burst of one
 * user's new numbers queued for connections and for the counter until the last ones missed their deadline (503).
 *
 * quota_charge_all answers each asked charge in the order asked: 'charged', 'repeat' (counted already this
 * period, free) or 'refused' (no room; nothing of it is left). A number asked twice is charged once, then a
 * repeat. A plan without room (quota 0) takes no lock: its numbers are only looked up. The counter rows are
 * upserted to be locked, so a counter this statement created and left at zero is deleted before it ends: a
 * refused charge leaves no trace.
 *
 * quota_charge_many (a batch, all or nothing) and quota_refund follow the same order. The 5-argument
 * quota_charge_once and quota_charge_many keep their signatures, so a process of the previous release still
 * charging during a rolling update locks in the same order.
 */
export class CounterFirstCharges1764460800000 implements MigrationInterface {
  name = 'CounterFirstCharges1764460800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION quota_lock_counters(p_users uuid[], p_periods char(7)[]) RETURNS void LANGUAGE sql AS $$
        INSERT INTO quota_usage AS u (user_id, period, used)
        SELECT DISTINCT c.user_id, c.period, 0 FROM unnest(p_users, p_periods) AS c(user_id, period) ORDER BY 1, 2
        ON CONFLICT (user_id, period) DO UPDATE SET used = u.used
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION quota_drop_unused_counters(p_users uuid[], p_periods char(7)[]) RETURNS void LANGUAGE sql AS $$
        DELETE FROM quota_usage u USING unnest(p_users, p_periods) AS c(user_id, period)
         WHERE u.user_id = c.user_id AND u.period = c.period AND u.used = 0
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION quota_charge_all(p_users uuid[], p_periods char(7)[], p_licences char(16)[], p_quotas integer[], p_charge_ids uuid[])
      RETURNS TABLE (outcome text) LANGUAGE plpgsql AS $$
      DECLARE
        -- The counters of the charges whose plan has room: only these are locked, and only these dropped at zero.
        v_with_room integer[] := ARRAY(
          SELECT c.position FROM unnest(p_quotas) WITH ORDINALITY AS c(quota, position) WHERE c.quota IS NULL OR c.quota > 0);
        v_users uuid[] := ARRAY(SELECT p_users[i] FROM unnest(v_with_room) i);
        v_periods char(7)[] := ARRAY(SELECT p_periods[i] FROM unnest(v_with_room) i);
      BEGIN
        PERFORM quota_lock_counters(v_users, v_periods);
        FOR i IN 1 .. coalesce(cardinality(p_users), 0) LOOP
          IF p_quotas[i] <= 0 THEN
            PERFORM 1 FROM quota_charges WHERE user_id = p_users[i] AND period = p_periods[i] AND licence_number = p_licences[i];
            outcome := CASE WHEN FOUND THEN 'repeat' ELSE 'refused' END;
          ELSE
            INSERT INTO quota_charges (user_id, period, licence_number, charge_id)
            VALUES (p_users[i], p_periods[i], p_licences[i], p_charge_ids[i])
            ON CONFLICT DO NOTHING;
            IF NOT FOUND THEN
              outcome := 'repeat';
            ELSE
              UPDATE quota_usage SET used = used + 1
               WHERE user_id = p_users[i] AND period = p_periods[i] AND (p_quotas[i] IS NULL OR used < p_quotas[i]);
              IF FOUND THEN
                outcome := 'charged';
              ELSE
                DELETE FROM quota_charges WHERE user_id = p_users[i] AND period = p_periods[i] AND licence_number = p_licences[i];
                outcome := 'refused';
              END IF;
            END IF;
          END IF;
          RETURN NEXT;
        END LOOP;
        PERFORM quota_drop_unused_counters(v_users, v_periods);
      END
      $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION quota_charge_once(p_user uuid, p_period char(7), p_licence char(16), p_quota integer, p_charge_id uuid)
      RETURNS text LANGUAGE sql AS $$
        SELECT outcome FROM quota_charge_all(ARRAY[p_user], ARRAY[p_period], ARRAY[p_licence], ARRAY[p_quota], ARRAY[p_charge_id])
      $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION quota_charge_many(p_user uuid, p_period char(7), p_licences char(16)[], p_quota integer, p_charge_id uuid,
                                                   OUT charged char(16)[], OUT needed integer, OUT remaining integer)
      LANGUAGE plpgsql AS $$
      DECLARE
        v_used integer;
        -- A plan without room takes no lock and leaves the counter alone.
        v_has_room boolean := p_quota IS NULL OR p_quota > 0;
      BEGIN
        IF v_has_room THEN
          PERFORM quota_lock_counters(ARRAY[p_user], ARRAY[p_period]);
        END IF;
        SELECT coalesce(used, 0) INTO v_used FROM (SELECT max(used) AS used FROM quota_usage WHERE user_id = p_user AND period = p_period) u;
        SELECT coalesce(array_agg(number ORDER BY number), '{}') INTO charged
          FROM (SELECT DISTINCT unnest(p_licences) AS number) numbers
         WHERE NOT EXISTS (SELECT 1 FROM quota_charges c WHERE c.user_id = p_user AND c.period = p_period AND c.licence_number = number);
        needed := cardinality(charged);
        IF p_quota IS NOT NULL AND v_used + needed > p_quota THEN
          charged := '{}';
        ELSIF needed > 0 THEN
          INSERT INTO quota_charges (user_id, period, licence_number, charge_id)
          SELECT p_user, p_period, number, p_charge_id FROM unnest(charged) AS number;
          UPDATE quota_usage SET used = used + needed WHERE user_id = p_user AND period = p_period;
          v_used := v_used + needed;
        END IF;
        remaining := CASE WHEN p_quota IS NULL THEN NULL ELSE greatest(p_quota - v_used, 0) END;
        IF v_has_room THEN
          PERFORM quota_drop_unused_counters(ARRAY[p_user], ARRAY[p_period]);
        END IF;
      END
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION quota_refund(p_user uuid, p_period char(7), p_licence char(16), p_charge_id uuid) RETURNS boolean LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM quota_usage WHERE user_id = p_user AND period = p_period FOR UPDATE;
        DELETE FROM quota_charges
         WHERE user_id = p_user AND period = p_period AND licence_number = p_licence AND charge_id IS NOT DISTINCT FROM p_charge_id;
        IF NOT FOUND THEN
          RETURN false;
        END IF;
        UPDATE quota_usage SET used = used - 1 WHERE user_id = p_user AND period = p_period;
        RETURN true;
      END
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION quota_refund(uuid, char, char, uuid)`);
    // The 5-argument functions go back to naming the charge in the setting the column's default reads.
    await queryRunner.query(`CREATE OR REPLACE ${CHARGE_MANY_NAMING_THE_CHARGE}`);
    await queryRunner.query(`CREATE OR REPLACE ${CHARGE_ONCE_NAMING_THE_CHARGE}`);
    await queryRunner.query(`DROP FUNCTION quota_charge_all(uuid[], char[], char[], integer[], uuid[])`);
    await queryRunner.query(`DROP FUNCTION quota_drop_unused_counters(uuid[], char[])`);
    await queryRunner.query(`DROP FUNCTION quota_lock_counters(uuid[], char[])`);
  }
}
