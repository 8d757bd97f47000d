import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Charges that can be told apart, and data that does not outlive its use.
 *
 * quota_charges.charge_id names the charge that made a row. The caller chooses it before the charge (so that
 * it can record what to refund before anything is committed), and a refund deletes the row only while it still
 * carries that id: a late or repeated refund of an earlier charge of the same number, refunded and charged again
 * since, no longer removes the newer charge. Rows charged before this migration, or through the earlier
 * signatures, keep a null id, which is what refunds of their charges ask for.
 *
 * licence_states.unwatched_since is when the number's last watcher left, so that its state (holder names
 * included) can be deleted a retention period later. watch_entries.paused_* hold an entry's state as of its pause:
 * a paused entry shows that, not what later re-checks paid for by other users found.
 */
/**
 * The 5-argument charging functions as this migration defines them (after CREATE or CREATE OR REPLACE): they name
 * the charge in a setting local to the transaction and call the 4-argument ones. A later migration that redefines
 * them restores these when it is reverted.
 */
export const CHARGE_ONCE_NAMING_THE_CHARGE = `
      FUNCTION quota_charge_once(p_user uuid, p_period char(7), p_licence char(16), p_quota integer, p_charge_id uuid)
      RETURNS text LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM set_config('lvs.charge_id', p_charge_id::text, true);
        RETURN quota_charge_once(p_user, p_period, p_licence, p_quota);
      END
      $$`;
export const CHARGE_MANY_NAMING_THE_CHARGE = `
      FUNCTION quota_charge_many(p_user uuid, p_period char(7), p_licences char(16)[], p_quota integer, p_charge_id uuid,
                                 OUT charged char(16)[], OUT needed integer, OUT remaining integer)
      LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM set_config('lvs.charge_id', p_charge_id::text, true);
        SELECT m.charged, m.needed, m.remaining INTO charged, needed, remaining FROM quota_charge_many(p_user, p_period, p_licences, p_quota) m;
      END
      $$`;

export class ChargeIdsAndDataLifetime1764244800000 implements MigrationInterface {
  name = 'ChargeIdsAndDataLifetime1764244800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The charging functions stay as they are: their new overloads name the charge in a setting local to the
    // transaction, which the column's default reads when they insert the row.
    await queryRunner.query(`ALTER TABLE quota_charges ADD COLUMN charge_id uuid DEFAULT nullif(current_setting('lvs.charge_id', true), '')::uuid`);
    await queryRunner.query(`CREATE ${CHARGE_ONCE_NAMING_THE_CHARGE}`);
    await queryRunner.query(`CREATE ${CHARGE_MANY_NAMING_THE_CHARGE}`);
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
    await queryRunner.query(`DROP FUNCTION quota_charge_many(uuid, char, char[], integer, uuid)`);
    await queryRunner.query(`DROP FUNCTION quota_charge_once(uuid, char, char, integer, uuid)`);
    await queryRunner.query(`ALTER TABLE quota_charges DROP COLUMN charge_id`);
  }
}
