import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One record per final answer (issue 33): what we told whom, when, from which register answer. The record as
 * answered is kept whole in `record`, as json (not jsonb) so that its fields keep their order; the columns beside
 * it are what the history filters, pages and retention need. No foreign key to users: evidence outlives a key or an account,
 * and only EVIDENCE_RETENTION_DAYS deletes it.
 *
 * A roster row's record is written by the statement that makes the row final (a trigger on batch_items), in
 * the same transaction: every path that settles rows makes one, and a row made final again (re-opened after
 * an ERROR) keeps the id it was given, since ERROR rows have none.
 */
export class VerificationRecords1764720000000 implements MigrationInterface {
  name = 'VerificationRecords1764720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE verification_records (
        verification_id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        answered_at timestamptz NOT NULL,
        licence_number char(16) NOT NULL,
        status text NOT NULL CHECK (status IN ('FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS')),
        channel text NOT NULL CHECK (channel IN ('api', 'console', 'batch')),
        record json NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX verification_records_user_newest ON verification_records (user_id, answered_at DESC, verification_id DESC)`);
    await queryRunner.query(`CREATE INDEX verification_records_answered_at ON verification_records (answered_at)`);
    await queryRunner.query(`ALTER TABLE batches ADD COLUMN key_id uuid, ADD COLUMN request_id text`);
    await queryRunner.query(`ALTER TABLE batch_items ADD COLUMN verification_id uuid, ADD COLUMN answer_source text`);
    await queryRunner.query(`
      CREATE FUNCTION record_batch_item_answer() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        owner batches%ROWTYPE;
        answered timestamptz := date_trunc('milliseconds', clock_timestamp());
      BEGIN
        SELECT * INTO owner FROM batches WHERE id = NEW.batch_id;
        NEW.verification_id := gen_random_uuid();
        INSERT INTO verification_records (verification_id, user_id, answered_at, licence_number, status, channel, record)
        VALUES (NEW.verification_id, owner.user_id, answered, NEW.licence_number, NEW.status, 'batch', json_build_object(
          'verificationId', NEW.verification_id,
          'userId', owner.user_id,
          'keyId', owner.key_id,
          'requestId', owner.request_id,
          'idempotencyKey', owner.idempotency_key,
          'licenceNumber', NEW.licence_number,
          'status', NEW.status,
          'licence', NEW.licence,
          'checkedAt', to_char(NEW.checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'answeredAt', to_char(answered AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'source', COALESCE(NEW.answer_source, 'register'),
          'nameCheck', NEW.holder_check -> 'name',
          'dateOfBirthCheck', NEW.holder_check -> 'dateOfBirth',
          'batchId', NEW.batch_id,
          'row', NEW.index,
          'channel', 'batch'));
        RETURN NEW;
      END $$`);
    // Final: a result, and for a found row naming a holder, its holder check too.
    await queryRunner.query(`
      CREATE TRIGGER batch_items_record_answer BEFORE UPDATE ON batch_items FOR EACH ROW
      WHEN (NEW.verification_id IS NULL AND NEW.status IN ('FOUND', 'NOT_FOUND', 'TOO_MANY_RESULTS')
            AND (NEW.status <> 'FOUND' OR NEW.holder IS NULL OR NEW.holder_check IS NOT NULL))
      EXECUTE FUNCTION record_batch_item_answer()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER batch_items_record_answer ON batch_items`);
    await queryRunner.query(`DROP FUNCTION record_batch_item_answer()`);
    await queryRunner.query(`ALTER TABLE batch_items DROP COLUMN verification_id, DROP COLUMN answer_source`);
    await queryRunner.query(`ALTER TABLE batches DROP COLUMN key_id, DROP COLUMN request_id`);
    await queryRunner.query(`DROP TABLE verification_records`);
  }
}
