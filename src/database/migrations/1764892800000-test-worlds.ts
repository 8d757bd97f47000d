import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test worlds. test_licences holds each test user's simulated licence changes (the test register of src/lookups keeps
 * and answers them; src/test-mode's simulate calls make them). A watched number's state belongs to a world: the live one (the nil uuid), shared by
 * every live watcher as before, or one test user's, so that a simulated change is re-checked and announced to that
 * user only. licence_world() names a user's world; watch_entries.world is filled from it on insert.
 */
export class TestWorlds1764892800000 implements MigrationInterface {
  name = 'TestWorlds1764892800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE test_licences (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        licence_number char(16) NOT NULL,
        licence jsonb NOT NULL,
        changed_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, licence_number)
      )`);
    await queryRunner.query(`
      CREATE FUNCTION licence_world(owner uuid) RETURNS uuid LANGUAGE sql STABLE AS $$
        SELECT CASE WHEN u.mode = 'test' THEN u.id ELSE '00000000-0000-0000-0000-000000000000'::uuid END FROM users u WHERE u.id = owner
      $$`);
    await queryRunner.query(`ALTER TABLE watch_entries DROP CONSTRAINT watch_entries_licence_number_fkey`);
    await queryRunner.query(`ALTER TABLE licence_states ADD COLUMN world uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000'`);
    await queryRunner.query(`ALTER TABLE licence_states DROP CONSTRAINT licence_states_pkey`);
    await queryRunner.query(`ALTER TABLE licence_states ADD PRIMARY KEY (world, licence_number)`);
    await queryRunner.query(`ALTER TABLE watch_entries ADD COLUMN world uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000'`);
    await queryRunner.query(`UPDATE watch_entries SET world = licence_world(user_id)`);
    await queryRunner.query(`
      CREATE FUNCTION watch_entry_world() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.world := licence_world(NEW.user_id);
        RETURN NEW;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER watch_entry_world BEFORE INSERT ON watch_entries FOR EACH ROW EXECUTE FUNCTION watch_entry_world()`);
    await queryRunner.query(
      `ALTER TABLE watch_entries ADD CONSTRAINT watch_entries_state_fkey FOREIGN KEY (world, licence_number) REFERENCES licence_states (world, licence_number)`,
    );
    await queryRunner.query(`CREATE INDEX watch_entries_world_licence ON watch_entries (world, licence_number)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX watch_entries_world_licence`);
    await queryRunner.query(`ALTER TABLE watch_entries DROP CONSTRAINT watch_entries_state_fkey`);
    await queryRunner.query(`DROP TRIGGER watch_entry_world ON watch_entries`);
    await queryRunner.query(`DROP FUNCTION watch_entry_world()`);
    await queryRunner.query(`DELETE FROM watch_entries WHERE world <> '00000000-0000-0000-0000-000000000000'`);
    await queryRunner.query(`ALTER TABLE watch_entries DROP COLUMN world`);
    await queryRunner.query(`DELETE FROM licence_states WHERE world <> '00000000-0000-0000-0000-000000000000'`);
    await queryRunner.query(`ALTER TABLE licence_states DROP CONSTRAINT licence_states_pkey`);
    await queryRunner.query(`ALTER TABLE licence_states DROP COLUMN world`);
    await queryRunner.query(`ALTER TABLE licence_states ADD PRIMARY KEY (licence_number)`);
    await queryRunner.query(
      `ALTER TABLE watch_entries ADD CONSTRAINT watch_entries_licence_number_fkey FOREIGN KEY (licence_number) REFERENCES licence_states (licence_number)`,
    );
    await queryRunner.query(`DROP FUNCTION licence_world(uuid)`);
    await queryRunner.query(`DROP TABLE test_licences`);
  }
}
