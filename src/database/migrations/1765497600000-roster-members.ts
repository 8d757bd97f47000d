import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A roster uploaded by a member in the console names that member in its rows' records (issue 41), as a check made
 * on the Verify page does: the batch keeps who made it (member_id, null for a key), and the roster trigger's record
 * takes it in the place RECORD_FIELDS gives memberId, after keyId.
 */
export class RosterMembers1765497600000 implements MigrationInterface {
  name = 'RosterMembers1765497600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE batches ADD COLUMN member_id uuid`);
    await queryRunner.query(recordFunction(`'memberId', owner.member_id,`));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(recordFunction(''));
    await queryRunner.query(`ALTER TABLE batches DROP COLUMN member_id`);
  }
}

/** The roster trigger's function (VerificationRecords1764720000000), with `memberField` after keyId. */
function recordFunction(memberField: string): string {
  return `
    CREATE OR REPLACE FUNCTION record_batch_item_answer() RETURNS trigger LANGUAGE plpgsql AS $$
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
        ${memberField}
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
    END $$`;
}
