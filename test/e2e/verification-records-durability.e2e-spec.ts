import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { ApiProcess } from '../support/api-process';
import { insertRecords } from '../support/bulk-records';
import { request, verify } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const MIB = 1024 * 1024;
const EXPORTED = 100_000;

describe('verification records on real processes: nothing lost, export in constant memory', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true });
  });
  afterAll(() => t.close());

  it('keeps a record for every verificationId a client received when the API is killed with SIGKILL mid-load', async () => {
    const { key } = await t.createKey({ quota: 10 });
    const api = await ApiProcess.start(t.env);
    // A cached number: every request with a new key is answered at once, and recorded.
    expect((await verify(api.baseUrl, key, SANDBOX_NUMBERS.active)).status).toBe(200);
    const received: string[] = [];
    let sent = 0;
    let stop = false;
    const client = async (lane: number) => {
      for (let index = 0; !stop && index < 2_000; index++) {
        sent++;
        try {
          const response = await fetch(`${api.baseUrl}/v1/licences/verify`, {
            method: 'POST',
            headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': `kill-${lane}-${index}` },
            body: JSON.stringify({ licenceNumber: SANDBOX_NUMBERS.active }),
          });
          const body = (await response.json()) as { verificationId?: string };
          if (response.status === 200 && body.verificationId) received.push(body.verificationId);
        } catch {
          return; // the API is gone: this client got no answer
        }
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, (_, lane) => client(lane)));
    await until(
      () => received.length,
      (count) => count >= 300,
      20_000,
    );
    await api.kill();
    stop = true;
    await load;
    expect(received.length).toBeGreaterThanOrEqual(300);
    expect(sent).toBeGreaterThan(received.length); // requests were in flight when it died

    const restarted = await ApiProcess.start(t.env);
    try {
      await until(
        () => t.redis.xlen(`${t.redisPrefix}:evidence:records`),
        (length) => length === 0,
        10_000,
      );
      const { rows } = await t.db.query<{ verification_id: string }>(
        'SELECT verification_id FROM verification_records WHERE verification_id = ANY ($1::uuid[])',
        [received],
      );
      expect(rows.length).toBe(new Set(received).size);
      // And each is readable through the restarted API.
      for (const id of received.slice(-5)) {
        expect((await request(restarted.baseUrl, 'GET', `/v1/verifications/${id}`, { headers: { 'x-api-key': key } })).status).toBe(200);
      }
    } finally {
      await restarted.stop();
    }
  }, 90_000);

  it(`streams an export of ${EXPORTED.toLocaleString('en-GB')} records holding no more of them at its end than near its start`, async () => {
    const { key, keyId, userId } = await t.createKey();
    await insertRecords(t.db, userId, keyId, EXPORTED);
    const api = await ApiProcess.start(t.env, { inspect: true });
    try {
      // Warm: the route's modules and the pool's connections, as on any API that has served an export.
      const warm = await request(api.baseUrl, 'GET', '/v1/verifications/export?to=2025-01-02T00:00:00Z', { headers: { 'x-api-key': key } });
      expect(warm.status).toBe(200);
      // The live heap after a full collection, not the resident size: V8 collects lazily, so a peak of resident
      // memory also counts garbage not yet collected, and varied by 30 MiB between runs of the same export.
      const idle = await api.heapUsedAfterCollection();
      const response = await fetch(`${api.baseUrl}/v1/verifications/export`, { headers: { 'x-api-key': key } });
      expect(response.status).toBe(200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      // Read (and paused, while the heap is measured) at a tenth and at nine tenths of the download.
      const marks = [EXPORTED / 10, (EXPORTED * 9) / 10];
      const held: number[] = [];
      let lines = 0;
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        for (const byte of chunk.value) if (byte === 0x0a) lines++;
        if (held.length < marks.length && lines >= marks[held.length]) held.push((await api.heapUsedAfterCollection()) - idle);
      }
      console.log(`export's live heap above idle: ${held.map((bytes, index) => `${marks[index]} lines +${(bytes / MIB).toFixed(1)} MiB`).join(', ')}`);
      expect(lines).toBe(EXPORTED + 1);
      // A stream holds a page of rows and the socket's buffers at a time. An export that kept each record it sent
      // held +8.9 and +65.2 MiB at the marks; a buffered one would hold all 100,000 records at the first.
      const [early, late] = held;
      expect(early).toBeLessThan(10 * MIB);
      expect(late - early).toBeLessThan(5 * MIB);
    } finally {
      await api.stop();
    }
  }, 120_000);
});
