import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Licence monitoring: watch entries per user, the last known state of each watched number (one
 * row however many users watch it, so it is looked up once per cycle), the events feed, webhook
 * endpoints, and their deliveries with one row per attempt.
 *
 * licence_states.next_check_at is the claim: a re-check tick takes due rows with
 * FOR UPDATE SKIP LOCKED and moves them a cycle ahead in the same statement, so several workers
 * never check one number twice in a cycle.
 */
export class Monitoring1763942400000 implements MigrationInterface {
  name = 'Monitoring1763942400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE licence_states (
        licence_number char(16) PRIMARY KEY,
        result jsonb,
        checked_at timestamptz,
        last_changed_at timestamptz,
        next_check_at timestamptz NOT NULL,
        expiry_warnings integer[] NOT NULL DEFAULT '{}'
      )`);
    await queryRunner.query(`CREATE INDEX licence_states_due ON licence_states (next_check_at)`);
    await queryRunner.query(`
      CREATE TABLE watch_entries (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        licence_number char(16) NOT NULL REFERENCES licence_states(licence_number),
        reference text CHECK (char_length(reference) <= 100),
        added_at timestamptz NOT NULL,
        state text NOT NULL DEFAULT 'ACTIVE' CHECK (state IN ('ACTIVE', 'PAUSED')),
        paused_reason text,
        PRIMARY KEY (user_id, licence_number)
      )`);
    await queryRunner.query(`CREATE INDEX watch_entries_licence ON watch_entries (licence_number)`);
    await queryRunner.query(`
      CREATE TABLE events (
        seq bigserial PRIMARY KEY,
        id uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        type text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX events_user_seq ON events (user_id, seq)`);
    await queryRunner.query(`CREATE INDEX events_created_at ON events (created_at)`);
    await queryRunner.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        url text NOT NULL,
        events text[] NOT NULL,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_until timestamptz,
        created_at timestamptz NOT NULL,
        failing_since timestamptz,
        disabled_at timestamptz,
        disabled_reason text
      )`);
    await queryRunner.query(`CREATE INDEX webhook_endpoints_user ON webhook_endpoints (user_id, created_at)`);
    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        event_id uuid NOT NULL REFERENCES events(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC)`);
    await queryRunner.query(`
      CREATE TABLE webhook_attempts (
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        attempted_at timestamptz NOT NULL,
        response_status integer,
        duration_ms integer NOT NULL,
        error text,
        next_attempt_at timestamptz,
        PRIMARY KEY (delivery_id, attempt)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_attempts`);
    await queryRunner.query(`DROP TABLE webhook_deliveries`);
    await queryRunner.query(`DROP TABLE webhook_endpoints`);
    await queryRunner.query(`DROP TABLE events`);
    await queryRunner.query(`DROP TABLE watch_entries`);
    await queryRunner.query(`DROP TABLE licence_states`);
  }
}
