import { SANDBOX_LICENCES, SANDBOX_NUMBERS } from '@lvs/test-register';
import type { Client } from 'pg';

/** Inserts `count` records of the user in one statement, every 5 minutes from 2025-01-01. */
export async function insertRecords(db: Client, userId: string, keyId: string, count: number): Promise<void> {
  await db.query(
    `INSERT INTO verification_records (verification_id, user_id, answered_at, licence_number, status, channel, record)
     SELECT id, $1::uuid, at, $3::text, 'FOUND', 'api', json_build_object(
       'verificationId', id, 'userId', $1::uuid, 'keyId', $2::uuid, 'requestId', 'req-' || n, 'idempotencyKey', 'export-' || n,
       'licenceNumber', $3::text, 'status', 'FOUND', 'licence', $4::json, 'checkedAt', to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       'answeredAt', to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'source', 'cache', 'nameCheck', null, 'dateOfBirthCheck', null,
       'batchId', null, 'row', null, 'channel', 'api')
     FROM (SELECT n, gen_random_uuid() AS id, timestamptz '2025-01-01T00:00:00Z' + n * interval '5 minutes' AS at
           FROM generate_series(1, $5::int) AS n) AS made`,
    [userId, keyId, SANDBOX_NUMBERS.active, JSON.stringify(SANDBOX_LICENCES.active), count],
  );
}
