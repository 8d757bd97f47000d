import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Holders in watch entries: the names and sealed date of birth that find a successor licence, whether to follow
 * it, and the successor once found.
 *
 * Holder checks in batches: a row may name its holder. The names are the partner's own text, like a reference;
 * a date of birth is kept only sealed (AES-256-GCM under HOLDER_DATA_KEY), for the name search that confirms it.
 * holder_check is written once the row's licence is found and, with a date, its search has answered;
 * holder_job_id is that search's lookup job while it runs.
 */
export class HolderChecks1764331200000 implements MigrationInterface {
  name = 'HolderChecks1764331200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE batch_items
        ADD COLUMN holder jsonb,
        ADD COLUMN date_of_birth_sealed text,
        ADD COLUMN holder_check jsonb,
        ADD COLUMN holder_job_id text
    `);
    await queryRunner.query(`CREATE INDEX batch_items_holder_job ON batch_items (holder_job_id) WHERE holder_job_id IS NOT NULL`);
    // The watched licence's holder, for the name search that finds its successor; the date only sealed.
    await queryRunner.query(`
      ALTER TABLE watch_entries
        ADD COLUMN holder jsonb,
        ADD COLUMN date_of_birth_sealed text,
        ADD COLUMN follow_successor boolean NOT NULL DEFAULT false,
        ADD COLUMN successor_licence_number char(16)
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE watch_entries
        DROP COLUMN holder, DROP COLUMN date_of_birth_sealed, DROP COLUMN follow_successor, DROP COLUMN successor_licence_number
    `);
    await queryRunner.query(`DROP INDEX batch_items_holder_job`);
    await queryRunner.query(`
      ALTER TABLE batch_items DROP COLUMN holder, DROP COLUMN date_of_birth_sealed, DROP COLUMN holder_check, DROP COLUMN holder_job_id
    `);
  }
}
