import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SANDBOX_LICENCES, SANDBOX_NUMBERS } from '@lvs/test-register';
import { parse } from 'csv-parse/sync';
import { newReceiptKey as newSeed, readReceiptKey, signReceipt } from '../../src/verification-records/receipt-keys';
import { RECORD_FIELDS } from '../../src/verification-records/verification-record';
import { ApiProcess } from '../support/api-process';
import { request, TestResponse, verify, verifyHolder } from '../support/http';
import { verifyWithJose } from '../support/jose-verify';
import { CliResult, runCli, runAdminCli } from '../support/admin-cli';
import { resultCacheKey } from '../support/result-cache-key';
import { SandboxAdmin, sandboxPerson } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { until, unknownNumber } from '../support/until';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const RECEIPTS_CLI = join(__dirname, '../../dist/src/cli/receipts.cli.js');

interface VerificationRecord {
  verificationId: string;
  answeredAt: string;
  [field: string]: unknown;
}

function runReceiptsCli(...args: string[]): Promise<CliResult> {
  return runCli(RECEIPTS_CLI, {}, ...args);
}

/** What a receipt signs of a record: all of it but the text the client chose (X-Request-Id, Idempotency-Key). */
function signedPart(record: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([field]) => field !== 'requestId' && field !== 'idempotencyKey'));
}

/** A GET with a Host header of the client's choosing (fetch sets its own). */
function getWithHost(url: string, host: string, apiKey: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { headers: { host, 'x-api-key': apiKey } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject).end();
  });
}

/** A receipt's protected header and payload, read without checking anything. */
function partsOf(receipt: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header, payload] = receipt.split('.', 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>);
  return { header, payload };
}

/** One new receipt signing key from `npm run admin -- receipt-key`. */
async function newReceiptKey(env: Record<string, string>): Promise<string> {
  const made = await runAdminCli(env, 'receipt-key');
  expect(made).toEqual({ status: 0, stdout: expect.stringMatching(/^[A-Za-z0-9_-]{43}\n$/), stderr: '' });
  return made.stdout.trim();
}

describe('verification records: one per final answer, history, export and signed receipts', () => {
  let t: TestApp;
  let sandbox: SandboxAdmin;

  beforeAll(async () => {
    t = await startTestApp({
      withWorker: true,
      env: { VERIFY_TIMEOUT_MS: '1000', REGISTER_REQUEST_TIMEOUT_MS: '4000', HOLDER_DATA_KEY: 'c0'.repeat(32) },
    });
    sandbox = new SandboxAdmin(t.sandbox.url);
  });
  afterAll(() => t.close());
  afterEach(() => sandbox.clearFaults());

  const get = (key: string, path: string) => request(t.baseUrl, 'GET', path, { headers: { 'x-api-key': key } });

  /** The record of an answer, read as soon as it is there; fails unless it is there within 5 s of the answer. */
  async function recordOf(key: string, verificationId: string, answeredBy = Date.now()): Promise<VerificationRecord> {
    const found = await until(
      () => get(key, `/v1/verifications/${verificationId}`),
      (answer) => answer.status === 200,
      5_000,
    );
    expect(Date.now() - answeredBy).toBeLessThan(5_000);
    return found.body as VerificationRecord;
  }

  async function countRecords(userId: string): Promise<number> {
    const { rows } = await t.db.query<{ count: string }>('SELECT count(*) FROM verification_records WHERE user_id = $1', [userId]);
    return Number(rows[0].count);
  }

  /** Waits until the evidence stream is drained, so that counts in PostgreSQL are final. */
  async function drained(): Promise<void> {
    await until(
      () => t.redis.xlen(`${t.redisPrefix}:evidence:records`),
      (length) => length === 0,
      5_000,
    );
  }

  it('records verify answers with exactly the listed fields; a replay keeps its id, a new key is a new record', async () => {
    const { key, keyId, userId } = await t.createKey({ quota: 10 });
    const first = await request(t.baseUrl, 'POST', '/v1/licences/verify', {
      headers: { 'x-api-key': key, 'x-request-id': 'req-evidence-1' },
      body: { licenceNumber: SANDBOX_NUMBERS.active },
    });
    expect(first.status).toBe(200);
    const body = first.body as { verificationId: string; checkedAt: string };
    expect(body.verificationId).toMatch(UUID);
    const derivedKey = first.headers.get('idempotency-key')!;
    const record = await recordOf(key, body.verificationId);
    expect(Object.keys(record)).toEqual([...RECORD_FIELDS, 'mode']);
    expect(record).toEqual({
      verificationId: body.verificationId,
      userId,
      keyId,
      memberId: null,
      requestId: 'req-evidence-1',
      idempotencyKey: derivedKey,
      licenceNumber: SANDBOX_NUMBERS.active,
      status: 'FOUND',
      licence: SANDBOX_LICENCES.active,
      checkedAt: body.checkedAt,
      answeredAt: expect.stringMatching(ISO),
      source: 'register',
      nameCheck: null,
      dateOfBirthCheck: null,
      batchId: null,
      row: null,
      channel: 'api',
      mode: 'live',
    });
    expect(Date.parse(record.answeredAt)).toBeGreaterThanOrEqual(Date.parse(body.checkedAt));

    // The same request again: the derived key's record answers the same id, and no second record is made.
    const replay = await verify(t.baseUrl, key, SANDBOX_NUMBERS.active);
    expect([replay.status, replay.headers.get('x-verification-source'), (replay.body as { verificationId: string }).verificationId]).toEqual([
      200,
      'cache',
      body.verificationId,
    ]);
    // An explicit key: a new check, from the cache, a new record; its retry keeps its id.
    const keyed = await verify(t.baseUrl, key, SANDBOX_NUMBERS.active, 'audit-check-2');
    const keyedId = (keyed.body as { verificationId: string }).verificationId;
    expect(keyedId).toMatch(UUID);
    expect(keyedId).not.toBe(body.verificationId);
    expect(((await verify(t.baseUrl, key, SANDBOX_NUMBERS.active, 'audit-check-2')).body as { verificationId: string }).verificationId).toBe(keyedId);
    expect(await recordOf(key, keyedId)).toMatchObject({ idempotencyKey: 'audit-check-2', source: 'cache', requestId: keyed.headers.get('x-request-id') });

    const notFound = await verify(t.baseUrl, key, unknownNumber(33, 1));
    expect(notFound.status).toBe(404);
    const notFoundId = (notFound.body as { verificationId: string }).verificationId;
    expect(await recordOf(key, notFoundId)).toMatchObject({ status: 'NOT_FOUND', licence: null, licenceNumber: unknownNumber(33, 1), source: 'register' });
    await drained();
    expect(await countRecords(userId)).toBe(3);
  });

  it("keeps a replay's id only while its idempotency record lives: after it expires the same key is a new check", async () => {
    const api = await ApiProcess.start({ ...t.env, IDEMPOTENCY_TTL_SECONDS: '2' });
    try {
      const { key, userId } = await t.createKey({ quota: 5 });
      const idOf = async () =>
        ((await verify(api.baseUrl, key, SANDBOX_NUMBERS.nonFrontLine, 'short-lived')).body as { verificationId: string }).verificationId;
      const first = await idOf();
      expect(await idOf()).toBe(first); // remembered by the process
      await sleep(2_500);
      const after = await idOf();
      expect(after).toMatch(UUID);
      expect(after).not.toBe(first);
      await until(
        () => countRecords(userId),
        (count) => count === 2,
        5_000,
      );
    } finally {
      await api.stop();
    }
  });

  it('makes no record for PENDING, a refused request or a failed lookup; the final answer after PENDING makes one', async () => {
    const { key, userId } = await t.createKey({ quota: 10 });
    const slow = SANDBOX_NUMBERS.refused;
    await sandbox.setFault({ fault: 'none', latencyMs: 1700, licenceNumber: slow });
    const pending = await verify(t.baseUrl, key, slow, 'slow-1');
    expect([pending.status, (pending.body as Record<string, unknown>).verificationId]).toEqual([202, undefined]);
    expect((await verify(t.baseUrl, key, '123')).status).toBe(400);
    await drained();
    expect(await countRecords(userId)).toBe(0);

    const final = await until(
      () => verify(t.baseUrl, key, slow, 'slow-1'),
      (answer) => answer.status !== 202,
      10_000,
    );
    expect(final.status).toBe(200);
    const id = (final.body as { verificationId: string }).verificationId;
    expect(await recordOf(key, id)).toMatchObject({ idempotencyKey: 'slow-1', status: 'FOUND', source: 'register' });

    const failing = unknownNumber(33, 3);
    await sandbox.setFault({ fault: 'status-500', licenceNumber: failing });
    const failed = await until(
      () => verify(t.baseUrl, key, failing),
      (answer) => answer.status !== 202,
      15_000,
    );
    expect(failed).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } });
    await drained();
    expect(await countRecords(userId)).toBe(1);
  });

  it('records holder checks with their outcome and never the date of birth; a replay keeps the id', async () => {
    const { key } = await t.createKey({ quota: 10 });
    const claim = { licenceNumber: SANDBOX_NUMBERS.renewedNew, firstName: 'Olivia', surname: 'Hughes', dateOfBirth: '1990-04-12' };
    const answer = await verifyHolder(t.baseUrl, key, claim);
    expect(answer.status).toBe(200);
    const id = (answer.body as { verificationId: string }).verificationId;
    const record = await recordOf(key, id);
    expect(record).toMatchObject({
      licenceNumber: SANDBOX_NUMBERS.renewedNew,
      status: 'FOUND',
      nameCheck: 'MATCH',
      dateOfBirthCheck: 'CONFIRMED',
      channel: 'api',
      batchId: null,
      row: null,
    });
    expect(JSON.stringify(record)).not.toContain('1990-04-12');
    expect(((await verifyHolder(t.baseUrl, key, claim)).body as { verificationId: string }).verificationId).toBe(id);
    // Another claim on the same number (the same derived key) is another question: another record.
    const other = await verifyHolder(t.baseUrl, key, { ...claim, firstName: 'Liv' });
    expect((other.body as { verificationId: string }).verificationId).not.toBe(id);
    expect(await recordOf(key, (other.body as { verificationId: string }).verificationId)).toMatchObject({ nameCheck: 'MISMATCH' });
  });

  it('records each final roster row with its batch and row, and the rows carry their id in JSON and CSV', async () => {
    const { key, keyId, userId } = await t.createKey({ quota: 10 });
    const created = await request(t.baseUrl, 'POST', '/v1/batches', {
      headers: { 'x-api-key': key, 'idempotency-key': 'roster-evidence', 'x-request-id': 'req-roster-1' },
      body: { items: [{ licenceNumber: SANDBOX_NUMBERS.expired, reference: 'a' }, { licenceNumber: unknownNumber(33, 4) }] },
    });
    expect(created.status).toBe(200);
    const batch = created.body as { id: string; items: { index: number; verificationId: string; checkedAt: string }[] };
    for (const item of batch.items) expect(item.verificationId).toMatch(UUID);
    const [first, second] = await Promise.all(batch.items.map((item) => recordOf(key, item.verificationId)));
    expect(first).toEqual({
      verificationId: batch.items[0].verificationId,
      userId,
      keyId,
      memberId: null,
      requestId: 'req-roster-1',
      idempotencyKey: 'roster-evidence',
      licenceNumber: SANDBOX_NUMBERS.expired,
      status: 'FOUND',
      licence: SANDBOX_LICENCES.expired,
      checkedAt: batch.items[0].checkedAt,
      answeredAt: expect.stringMatching(ISO),
      source: 'register',
      nameCheck: null,
      dateOfBirthCheck: null,
      batchId: batch.id,
      row: 1,
      channel: 'batch',
      mode: 'live',
    });
    expect(second).toMatchObject({ status: 'NOT_FOUND', licence: null, row: 2, batchId: batch.id, channel: 'batch' });
    const csv = await get(key, `/v1/batches/${batch.id}/results.csv`);
    const rows = parse<Record<string, string>>(csv.text, { bom: true, columns: true });
    expect(rows.map((row) => row.verificationId)).toEqual(batch.items.map((item) => item.verificationId));
    // A replay of the roster answers the same rows and makes no new records.
    const replay = await request(t.baseUrl, 'POST', '/v1/batches', {
      headers: { 'x-api-key': key, 'idempotency-key': 'roster-evidence' },
      body: { items: [{ licenceNumber: SANDBOX_NUMBERS.expired, reference: 'a' }, { licenceNumber: unknownNumber(33, 4) }] },
    });
    expect((replay.body as typeof batch).items.map((item) => item.verificationId)).toEqual(batch.items.map((item) => item.verificationId));
    expect(await countRecords(userId)).toBe(2);
  });

  it('lists records newest first with filters and cursor paging; another user gets 404', async () => {
    const { key, userId } = await t.createKey({ quota: 20 });
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) {
      const answer = await verify(t.baseUrl, key, index < 3 ? unknownNumber(34, index) : SANDBOX_NUMBERS.revoked, `list-${index}`);
      ids.push((answer.body as { verificationId: string }).verificationId);
    }
    await until(
      () => countRecords(userId),
      (count) => count === 5,
      5_000,
    );
    const all = await get(key, '/v1/verifications');
    expect(all.status).toBe(200);
    const listed = (all.body as { verifications: VerificationRecord[]; nextCursor: string | null }).verifications;
    expect(listed.map((record) => record.verificationId).sort()).toEqual([...ids].sort());
    const times = listed.map((record) => record.answeredAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect((all.body as { nextCursor: string | null }).nextCursor).toBeNull();

    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page: TestResponse = await get(key, `/v1/verifications?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      const { verifications, nextCursor } = page.body as { verifications: VerificationRecord[]; nextCursor: string | null };
      expect(verifications.length).toBeLessThanOrEqual(2);
      pages.push(...verifications.map((record) => record.verificationId));
      cursor = nextCursor;
    } while (cursor !== null);
    expect(pages).toEqual(listed.map((record) => record.verificationId));

    const found = await get(key, '/v1/verifications?status=FOUND');
    expect((found.body as { verifications: VerificationRecord[] }).verifications.map((record) => record.licenceNumber)).toEqual(
      Array(2).fill(SANDBOX_NUMBERS.revoked),
    );
    const one = await get(key, `/v1/verifications?licenceNumber=${unknownNumber(34, 1)}&channel=api`);
    expect((one.body as { verifications: VerificationRecord[] }).verifications.map((record) => record.verificationId)).toEqual([ids[1]]);
    expect(((await get(key, '/v1/verifications?channel=batch')).body as { verifications: unknown[] }).verifications).toEqual([]);
    const middle = listed[2].answeredAt;
    const before = await get(key, `/v1/verifications?to=${middle}`);
    expect((before.body as { verifications: VerificationRecord[] }).verifications.every((record) => record.answeredAt < middle)).toBe(true);
    const since = await get(key, `/v1/verifications?from=${middle}`);
    expect((since.body as { verifications: VerificationRecord[] }).verifications.every((record) => record.answeredAt >= middle)).toBe(true);
    expect((before.body as { verifications: unknown[] }).verifications.length + (since.body as { verifications: unknown[] }).verifications.length).toBe(5);

    for (const [query, message] of [
      ['status=PENDING', 'status must be FOUND, NOT_FOUND or TOO_MANY_RESULTS'],
      ['channel=fax', 'channel must be api, console or batch'],
      ['from=yesterday', 'from must be a date-time such as 2026-11-01T00:00:00Z'],
      // 41 characters, one past the document's maxLength, though a valid ISO-8601 instant.
      [`from=2026-11-01T00:00:00.${'0'.repeat(20)}Z`, 'from must be a date-time such as 2026-11-01T00:00:00Z'],
      ['licenceNumber=12', 'licenceNumber must be 16 digits'],
      ['limit=0', 'limit must be an integer from 1 to 1000'],
      ['cursor=bogus', 'cursor is not valid'],
      ['colour=red', 'Query may only contain limit, cursor, licenceNumber, from, to, status, channel and memberId'],
    ]) {
      expect(await get(key, `/v1/verifications?${query}`)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', message } });
    }

    const stranger = await t.createKey();
    for (const path of [`/v1/verifications/${ids[0]}`, `/v1/verifications/${ids[0]}/receipt`, '/v1/verifications/not-an-id']) {
      expect(await get(stranger.key, path)).toMatchObject({
        status: 404,
        body: { code: 'VERIFICATION_NOT_FOUND', message: 'Verification record not found' },
      });
    }
    expect(((await get(stranger.key, '/v1/verifications')).body as { verifications: unknown[] }).verifications).toEqual([]);
  });

  it('exports records as CSV, oldest first, the licence flattened and formulas neutralised', async () => {
    const { key } = await t.createKey({ quota: 5 });
    const a = await verify(t.baseUrl, key, SANDBOX_NUMBERS.active, '=cmd|1');
    const b = await verify(t.baseUrl, key, unknownNumber(35, 1), 'export-2');
    const ids = [a, b].map((answer) => (answer.body as { verificationId: string }).verificationId);
    await recordOf(key, ids[1]);
    await recordOf(key, ids[0]);
    // A record is readable at once; the export reads what the worker has moved to PostgreSQL.
    await drained();
    const download = await get(key, '/v1/verifications/export');
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    // fetch's text() drops the BOM; the bytes keep it.
    expect(
      download.text.startsWith('verificationId,userId,keyId,memberId,memberName,requestId,idempotencyKey,licenceNumber,status,licence.licenceNumber,'),
    ).toBe(true);
    const raw = Buffer.from(await (await fetch(`${t.baseUrl}/v1/verifications/export`, { headers: { 'x-api-key': key } })).arrayBuffer());
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse<Record<string, string>>(download.text, { bom: true, columns: true });
    expect(
      rows.map((row) => [row.verificationId, row.idempotencyKey, row['licence.firstName'], row.status, row.channel, row.memberId, row.memberName]),
    ).toEqual([
      [ids[0], "'=cmd|1", 'JANE', 'FOUND', 'api', '', ''],
      [ids[1], 'export-2', '', 'NOT_FOUND', 'api', '', ''],
    ]);
    const future = await get(key, '/v1/verifications/export?from=2100-01-01T00:00:00Z');
    expect(parse(future.text, { bom: true })).toEqual([expect.arrayContaining(['verificationId', 'licence.surname', 'channel'])]);
    expect(await get(key, '/v1/verifications/export?limit=5')).toMatchObject({ status: 400, body: { message: 'Query may only contain from and to' } });
  });

  it('signs a receipt that jose verifies against the served JWKS, that fails once a byte changes, and survives a key rotation', async () => {
    const first = await newReceiptKey(t.env);
    const second = await newReceiptKey(t.env);
    const before = await ApiProcess.start({ ...t.env, RECEIPT_SIGNING_KEYS: first });
    let oldReceipt: string;
    let id: string;
    const { key } = await t.createKey({ quota: 5 });
    try {
      const answer = await verify(before.baseUrl, key, SANDBOX_NUMBERS.suspended);
      id = (answer.body as { verificationId: string }).verificationId;
      await until(
        () => request(before.baseUrl, 'GET', `/v1/verifications/${id}`, { headers: { 'x-api-key': key } }),
        (r) => r.status === 200,
        5_000,
      );
      const receipt = await request(before.baseUrl, 'GET', `/v1/verifications/${id}/receipt`, { headers: { 'x-api-key': key } });
      expect(receipt.status).toBe(200);
      expect(receipt.headers.get('content-type')).toBe('application/jose');
      oldReceipt = receipt.text;
      const jwks = await request(before.baseUrl, 'GET', '/.well-known/jwks.json');
      expect(jwks.status).toBe(200);
      const keys = (jwks.body as { keys: { kid: string; kty: string; crv: string; use: string; x: string }[] }).keys;
      expect(keys).toEqual([
        { kty: 'OKP', crv: 'Ed25519', x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), kid: expect.any(String), use: 'sig', alg: 'EdDSA' },
      ]);

      const checked = await verifyWithJose(oldReceipt, `${before.baseUrl}/.well-known/jwks.json`);
      const record = (await request(before.baseUrl, 'GET', `/v1/verifications/${id}`, { headers: { 'x-api-key': key } })).body as object;
      expect(checked).toEqual({
        ok: true,
        header: { alg: 'EdDSA', kid: keys[0].kid, typ: 'lvs-receipt+jwt' },
        payload: { ...signedPart(record), iss: before.baseUrl, iat: expect.any(Number) },
      });
      // One byte of the payload changed: the signature no longer matches.
      const [header, payload, signature] = oldReceipt.split('.');
      const text = Buffer.from(payload, 'base64url').toString('utf8');
      const tampered = `${header}.${Buffer.from(text.replace('"status":"FOUND"', '"status":"FOUNE"')).toString('base64url')}.${signature}`;
      expect(await verifyWithJose(tampered, `${before.baseUrl}/.well-known/jwks.json`)).toEqual({
        ok: false,
        code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      });

      // The CLI: offline with a JWKS file and the issuer it belongs to, and by the issuer's address alone.
      const dir = mkdtempSync(join(tmpdir(), 'receipts-'));
      writeFileSync(join(dir, 'receipt.jws'), oldReceipt);
      writeFileSync(join(dir, 'tampered.jws'), tampered);
      writeFileSync(join(dir, 'jwks.json'), jwks.text);
      const valid = await runReceiptsCli('verify', join(dir, 'receipt.jws'), '--jwks', join(dir, 'jwks.json'), '--issuer', before.baseUrl);
      expect([valid.status, JSON.parse(valid.stdout), valid.stderr]).toEqual([
        0,
        { ...signedPart(record), iss: before.baseUrl, iat: expect.any(Number) },
        '',
      ]);
      expect((await runReceiptsCli('verify', join(dir, 'receipt.jws'), '--issuer', before.baseUrl)).status).toBe(0);
      expect(await runReceiptsCli('verify', join(dir, 'tampered.jws'), '--jwks', join(dir, 'jwks.json'), '--issuer', before.baseUrl)).toEqual({
        status: 1,
        stdout: '',
        stderr: 'Receipt not valid: the signature does not match the header and payload\n',
      });
    } finally {
      await before.stop();
    }

    // Rotated: the new key signs, the old one stays published, and the old receipt still verifies.
    const after = await ApiProcess.start({ ...t.env, RECEIPT_SIGNING_KEYS: `${second},${first}` });
    try {
      const jwksUrl = `${after.baseUrl}/.well-known/jwks.json`;
      expect(((await request(after.baseUrl, 'GET', '/.well-known/jwks.json')).body as { keys: unknown[] }).keys).toHaveLength(2);
      expect(await verifyWithJose(oldReceipt, jwksUrl)).toMatchObject({ ok: true, payload: { verificationId: id } });
      const fresh = await request(after.baseUrl, 'GET', `/v1/verifications/${id}/receipt`, { headers: { 'x-api-key': key } });
      const verified = await verifyWithJose(fresh.text, jwksUrl);
      expect(verified.ok && verified.header.kid).not.toBe(JSON.parse(Buffer.from(oldReceipt.split('.')[0], 'base64url').toString()).kid);
      expect(verified).toMatchObject({ ok: true, payload: { verificationId: id, iss: after.baseUrl } });
    } finally {
      await after.stop();
    }
  }, 60_000);

  describe('evidence that cannot contradict its answer or be forged', () => {
    /** The receipt of a record, fetched with the key that owns it. */
    async function receiptOf(key: string, verificationId: string, baseUrl = t.baseUrl): Promise<string> {
      const receipt = await request(baseUrl, 'GET', `/v1/verifications/${verificationId}/receipt`, { headers: { 'x-api-key': key } });
      expect(receipt.status).toBe(200);
      return receipt.text;
    }

    /** A receipt checked by the CLI with the service's issuer address, as an auditor would: exit 0 and its payload. */
    async function auditedPayload(receipt: string, ...options: string[]): Promise<Record<string, unknown>> {
      const file = join(mkdtempSync(join(tmpdir(), 'receipts-')), 'receipt.jws');
      writeFileSync(file, receipt);
      const checked = await runReceiptsCli('verify', file, '--issuer', t.baseUrl, ...options);
      expect([checked.status, checked.stderr]).toEqual([0, '']);
      return JSON.parse(checked.stdout) as Record<string, unknown>;
    }

    it.each([
      ['two identical requests (the derived key)', undefined, 1],
      ['two requests with one Idempotency-Key', 'one-key-46', 2],
    ])(
      'answers a licence changed between %s, once its stored answer expired, under a new id whose record and receipt say so',
      async (_case, idempotencyKey, index) => {
        const { key } = await t.createKey({ quota: 10 });
        const number = unknownNumber(46, index);
        await sandbox.addLicence(sandboxPerson(number, 'RUTH', `CHANGED${index}`, '1985-05-05'));
        const first = await verify(t.baseUrl, key, number, idempotencyKey);
        expect([first.status, (first.body as { licence: { status: string } }).licence.status]).toEqual([200, 'Active']);

        await sandbox.changeLicence(number, { status: 'Suspended' });
        await t.redis.del(resultCacheKey(t.redisPrefix, t.sandbox.url, number)); // the stored answer expires
        const second = await verify(t.baseUrl, key, number, idempotencyKey);
        expect([second.status, second.headers.get('idempotency-key'), (second.body as { licence: { status: string } }).licence.status]).toEqual([
          200,
          first.headers.get('idempotency-key'),
          'Suspended',
        ]);
        const firstId = (first.body as { verificationId: string }).verificationId;
        const secondId = (second.body as { verificationId: string }).verificationId;
        expect(secondId).toMatch(UUID);
        expect(secondId).not.toBe(firstId);
        // A replay of the stored (new) answer keeps its id.
        const replay = await verify(t.baseUrl, key, number, idempotencyKey);
        expect([replay.headers.get('x-verification-source'), (replay.body as { verificationId: string }).verificationId]).toEqual(['cache', secondId]);

        for (const [answer, id, source] of [
          [first, firstId, 'register'],
          [second, secondId, 'register'],
        ] as const) {
          const { status, licence, checkedAt } = answer.body as { status: string; licence: { status: string }; checkedAt: string };
          const said = { verificationId: id, licenceNumber: number, status, licence, checkedAt, source };
          expect(await recordOf(key, id)).toMatchObject(said);
          expect(await auditedPayload(await receiptOf(key, id))).toMatchObject({ ...said, iss: t.baseUrl });
        }
      },
      30_000,
    );

    it('answers a test licence changed by a simulated revoke, under one Idempotency-Key, with a new id whose record and test receipt say so', async () => {
      const { key } = await t.createKey({ test: true });
      const number = '4000000000000001'; // the built-in test register's Active licence, in this test side's world
      const first = await verify(t.baseUrl, key, number, 'test-key-46');
      expect([first.status, (first.body as { licence: { status: string } }).licence.status]).toEqual([200, 'Active']);
      const simulated = await request(t.baseUrl, 'POST', `/v1/test/licences/${number}`, {
        headers: { 'x-api-key': key },
        body: { status: 'Revoked', statusReason: 'Revoked in a test' },
      });
      expect(simulated.status).toBe(200);
      const second = await verify(t.baseUrl, key, number, 'test-key-46');
      expect([second.status, (second.body as { licence: { status: string } }).licence.status]).toEqual([200, 'Revoked']);
      const ids = [first, second].map((answer) => (answer.body as { verificationId: string }).verificationId);
      expect(ids[1]).toMatch(UUID);
      expect(ids[1]).not.toBe(ids[0]);
      for (const [index, answer] of [first, second].entries()) {
        const { status, licence, checkedAt } = answer.body as { status: string; licence: object; checkedAt: string };
        const said = { verificationId: ids[index], licenceNumber: number, status, licence, checkedAt, mode: 'test' };
        expect(await recordOf(key, ids[index])).toMatchObject(said);
        expect(await auditedPayload(await receiptOf(key, ids[index]), '--test')).toMatchObject(said);
      }
    });

    it("fails a receipt signed by a foreign key with a foreign iss in every mode of receipts verify, and never fetches the iss's keys", async () => {
      const forger = readReceiptKey(newSeed());
      let forgerFetches = 0;
      const forgerServer = createServer((_request, response) => {
        forgerFetches += 1;
        response.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [forger.jwk] }));
      });
      await new Promise<void>((resolve) => forgerServer.listen(0, '127.0.0.1', resolve));
      const forgerUrl = `http://127.0.0.1:${(forgerServer.address() as AddressInfo).port}`;
      try {
        const { key } = await t.createKey({ quota: 5 });
        const answer = await verify(t.baseUrl, key, SANDBOX_NUMBERS.active);
        const { payload } = partsOf(
          await receiptOf(key, (await recordOf(key, (answer.body as { verificationId: string }).verificationId)).verificationId),
        );
        const dir = mkdtempSync(join(tmpdir(), 'receipts-'));
        const write = (name: string, text: string) => {
          writeFileSync(join(dir, name), text);
          return join(dir, name);
        };
        // The true record, claimed Suspended, signed by the forger under its own iss; and once under ours.
        const claims = { ...payload, licence: { ...(payload.licence as object), status: 'Suspended' } };
        const foreign = write('foreign.jws', signReceipt({ ...claims, iss: forgerUrl }, forger));
        const oursForged = write('ours-forged.jws', signReceipt(claims, forger));
        const forgerKeys = write('forger-jwks.json', JSON.stringify({ keys: [forger.jwk] }));
        const ourKeys = write('jwks.json', (await request(t.baseUrl, 'GET', '/.well-known/jwks.json')).text);

        const refusedUsage = await runReceiptsCli('verify', foreign);
        expect([refusedUsage.status, refusedUsage.stdout, refusedUsage.stderr.split('\n')[0]]).toEqual([
          2,
          '',
          "name what you trust: --issuer URL (the service's address), or --jwks FILE|URL with it",
        ]);
        const kidMissing = `Receipt not valid: no Ed25519 key with kid ${forger.jwk.kid} in the key set\n`;
        const foreignIssuer = `Receipt not valid: issued by ${forgerUrl}, not by a trusted issuer (${t.baseUrl})\n`;
        const modes: [string[], string][] = [
          [[foreign, '--issuer', t.baseUrl], kidMissing],
          [[foreign, '--jwks', `${t.baseUrl}/.well-known/jwks.json`], kidMissing],
          [[foreign, '--jwks', ourKeys, '--issuer', t.baseUrl], kidMissing],
          [[foreign, '--jwks', forgerKeys, '--issuer', t.baseUrl], foreignIssuer],
          [[oursForged, '--issuer', t.baseUrl], kidMissing],
          [[oursForged, '--jwks', ourKeys, '--issuer', t.baseUrl], kidMissing],
        ];
        for (const [args, reason] of modes) {
          expect([args, await runReceiptsCli('verify', ...args)]).toEqual([args, { status: 1, stdout: '', stderr: reason }]);
        }
        // --test checks against the test keys and typ: the forger's live-typed receipt is refused there too.
        expect(await runReceiptsCli('verify', foreign, '--issuer', t.baseUrl, '--test')).toEqual({
          status: 1,
          stdout: '',
          stderr: "Receipt not valid: the receipt's typ is lvs-receipt+jwt, not lvs-test-receipt+jwt\n",
        });
        expect(forgerFetches).toBe(0);
      } finally {
        await new Promise((resolve) => forgerServer.close(resolve));
      }
    });

    it("names PUBLIC_BASE_URL as the issuer of a receipt fetched with a forged Host, and the listener's own address when it is unset", async () => {
      const publicBaseUrl = 'https://verify.partner-gateway.test';
      const api = await ApiProcess.start({ ...t.env, PUBLIC_BASE_URL: publicBaseUrl });
      try {
        const { key } = await t.createKey({ quota: 5 });
        const id = (
          await recordOf(key, ((await verify(api.baseUrl, key, SANDBOX_NUMBERS.nonFrontLine)).body as { verificationId: string }).verificationId)
        ).verificationId;
        for (const [baseUrl, issuer] of [
          [api.baseUrl, publicBaseUrl],
          [t.baseUrl, t.baseUrl],
        ]) {
          const forged = await getWithHost(`${baseUrl}/v1/verifications/${id}/receipt`, 'forger.example', key);
          expect([forged.status, partsOf(forged.body).payload.iss]).toEqual([200, issuer]);
        }
      } finally {
        await api.stop();
      }
    });

    it("signs a test key's receipt with a test key published apart, which the live check refuses and --test accepts", async () => {
      const { key } = await t.createKey({ test: true });
      const answer = await verify(t.baseUrl, key, SANDBOX_NUMBERS.active);
      expect(answer.status).toBe(200);
      const id = (answer.body as { verificationId: string }).verificationId;
      await recordOf(key, id);
      const receipt = await receiptOf(key, id);
      const live = (await request(t.baseUrl, 'GET', '/.well-known/jwks.json')).body as { keys: { kid: string }[] };
      const test = await request(t.baseUrl, 'GET', '/.well-known/jwks-test.json');
      expect([test.status, test.headers.get('cache-control')]).toEqual([200, 'public, max-age=300']);
      const testKids = (test.body as { keys: { kid: string }[] }).keys.map((jwk) => jwk.kid);
      const { header, payload } = partsOf(receipt);
      expect(header).toEqual({ alg: 'EdDSA', kid: testKids[0], typ: 'lvs-test-receipt+jwt' });
      expect(live.keys.map((jwk) => jwk.kid)).not.toContain(testKids[0]);
      expect(payload).toMatchObject({ verificationId: id, mode: 'test', iss: t.baseUrl });

      expect(await verifyWithJose(receipt, `${t.baseUrl}/.well-known/jwks.json`)).toEqual({ ok: false, code: 'ERR_JWKS_NO_MATCHING_KEY' });
      const file = join(mkdtempSync(join(tmpdir(), 'receipts-')), 'test.jws');
      writeFileSync(file, receipt);
      const testKeys = join(dirname(file), 'jwks-test.json');
      writeFileSync(testKeys, test.text);
      const testReceipt = 'Receipt not valid: a test-mode receipt, which proves no live answer (check it as one with --test)\n';
      for (const args of [
        ['--issuer', t.baseUrl],
        ['--jwks', testKeys, '--issuer', t.baseUrl],
        ['--jwks', `${t.baseUrl}/.well-known/jwks-test.json`],
      ]) {
        expect([args, await runReceiptsCli('verify', file, ...args)]).toEqual([args, { status: 1, stdout: '', stderr: testReceipt }]);
      }
      expect(await auditedPayload(receipt, '--test')).toMatchObject({ verificationId: id, mode: 'test' });
    });
  });

  it('serves every answered id with its receipt at once, before the worker has moved its record: 1,000 answers, 1,000 receipts', async () => {
    const { key } = await t.createKey();
    expect((await verify(t.baseUrl, key, SANDBOX_NUMBERS.active)).status).toBe(200);
    const receipts = new Map<number, number>();
    await Promise.all(
      Array.from({ length: 10 }, async (_, lane) => {
        for (let index = 0; index < 100; index += 1) {
          const answer = await verify(t.baseUrl, key, SANDBOX_NUMBERS.active, `read-own-${lane}-${index}`);
          expect(answer.status).toBe(200);
          const receipt = await get(key, `/v1/verifications/${(answer.body as { verificationId: string }).verificationId}/receipt`);
          receipts.set(receipt.status, (receipts.get(receipt.status) ?? 0) + 1);
        }
      }),
    );
    expect(Object.fromEntries(receipts)).toEqual({ 200: 1000 });
  });

  it('deletes records older than EVIDENCE_RETENTION_DAYS in the worker', async () => {
    const { key, userId } = await t.createKey({ quota: 5 });
    const kept = (await verify(t.baseUrl, key, unknownNumber(36, 1))).body as { verificationId: string };
    await recordOf(key, kept.verificationId);
    const old = '00000000-0000-4000-8000-000000000036';
    await t.db.query(
      `INSERT INTO verification_records (verification_id, user_id, answered_at, licence_number, status, channel, record)
       VALUES ($1, $2, now() - interval '3 days', $3, 'NOT_FOUND', 'api', '{}')`,
      [old, userId, unknownNumber(36, 2)],
    );
    const worker = await t.startWorker({ EVIDENCE_RETENTION_DAYS: '2' });
    const stored = async (id: string) => (await t.db.query('SELECT 1 FROM verification_records WHERE verification_id = $1', [id])).rowCount;
    await until(
      () => stored(old),
      (count) => count === 0,
      10_000,
    );
    expect((await get(key, `/v1/verifications/${kept.verificationId}`)).status).toBe(200);
    // The worker logs the deletion after it commits, and its output reaches this process a moment later.
    const deleted = 'Deleted 1 verification records answered before';
    expect(
      await until(
        () => worker.log,
        (log) => log.includes(deleted),
        5_000,
      ),
    ).toContain(deleted);
  });
});
