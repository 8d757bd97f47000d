import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The per-number ledger is kept LEDGER_RETENTION_MONTHS: the worker deletes older periods' rows at every tick,
 * which needs them found by period without reading the whole ledger (its key starts with the user).
 */
export class LedgerRetention1764633600000 implements MigrationInterface {
  name = 'LedgerRetention1764633600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX quota_charges_period ON quota_charges (period)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX quota_charges_period`);
  }
}
