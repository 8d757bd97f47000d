import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users, API keys and the monthly quota ledger.
 *
 * quota_charge_once is the one place a charge happens. It is a single statement for the caller
 * and atomic: the unique key on quota_charges makes a repeat of a number free (a concurrent first
 * charge of the same number waits on that key), and the conditional upsert of quota_usage, which
 * row-locks the counter, refuses a new number at the limit. A refused charge removes its own row
 * before the statement ends, so nothing of it is ever visible.
 */
export class InitialSchema1763769600000 implements MigrationInterface {
  name = 'InitialSchema1763769600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        monthly_quota integer CHECK (monthly_quota >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        key_hash char(64) NOT NULL,
        key_prefix text NOT NULL,
        expires_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX api_keys_key_hash ON api_keys (key_hash)`);
    await queryRunner.query(`CREATE INDEX api_keys_user_id ON api_keys (user_id)`);
    await queryRunner.query(`
      CREATE TABLE quota_usage (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        period char(7) NOT NULL,
        used integer NOT NULL DEFAULT 0 CONSTRAINT quota_usage_used_not_negative CHECK (used >= 0),
        PRIMARY KEY (user_id, period)
      )`);
    await queryRunner.query(`
      CREATE TABLE quota_charges (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        period char(7) NOT NULL,
        licence_number char(16) NOT NULL,
        charged_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, period, licence_number)
      )`);
    await queryRunner.query(`
      CREATE FUNCTION quota_charge_once(p_user uuid, p_period char(7), p_licence char(16), p_quota integer)
      RETURNS text LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO quota_charges (user_id, period, licence_number)
        VALUES (p_user, p_period, p_licence)
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
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION quota_charge_once(uuid, char, char, integer)`);
    await queryRunner.query(`DROP TABLE quota_charges`);
    await queryRunner.query(`DROP TABLE quota_usage`);
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP TABLE users`);
  }
}
