import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Key lineage: api_keys.created_by_key_id names the key that issued this one through POST /v1/keys (or the
 * console); NULL for a key the operator issued with the keys command. A key may revoke only itself and the keys
 * descended from it, so a leaked key can no longer shut its owner out. Keys that exist already count as the
 * operator's: who issued them was never recorded, and the safe reading is that no other key may revoke them.
 */
export class KeyLineage1764590400000 implements MigrationInterface {
  name = 'KeyLineage1764590400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Keys are deleted only with their user, all of them together, so the reference never outlives its key.
    await queryRunner.query(`ALTER TABLE api_keys ADD COLUMN created_by_key_id uuid REFERENCES api_keys (id) ON DELETE CASCADE`);
    // Revocation walks the lineage down from the calling key.
    await queryRunner.query(`CREATE INDEX api_keys_created_by ON api_keys (created_by_key_id) WHERE created_by_key_id IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX api_keys_created_by`);
    await queryRunner.query(`ALTER TABLE api_keys DROP COLUMN created_by_key_id`);
  }
}
