/** @alone: measures the API's memory during an export, which other suites' processes on the same cores disturb (the e2e-alone project, jest.config.js). */
import { readFileSync, writeFileSync } from 'node:fs';
import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { ApiProcess } from '../support/api-process';
import { insertRecords } from '../support/bulk-records';
import { request, verify } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const MIB = 1024 * 1024;
const EXPORTED = 100_000;

/** The kernel's peak resident memory of a process (VmHWM), in bytes. */
function peakResidentBytes(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmHWM for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** Counts the lines of a download as it streams in, without holding it. */
async function countLines(response: Response): Promise<number> {
  let lines = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    for (const byte of chunk) if (byte === 0x0a) lines++;
  }
  return lines;
}

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

  it(`streams an export of ${EXPORTED.toLocaleString('en-GB')} records with the API's peak memory under 20 MiB above idle`, async () => {
    const { key, keyId, userId } = await t.createKey();
    await insertRecords(t.db, userId, keyId, EXPORTED);
    const api = await ApiProcess.start(t.env);
    try {
      // Warm: the route's modules and the pool's connections, as on any API that has served an export.
      const warm = await request(api.baseUrl, 'GET', '/v1/verifications/export?to=2025-01-02T00:00:00Z', { headers: { 'x-api-key': key } });
      expect(warm.status).toBe(200);
      /** How far the API's resident memory rose above idle while one export was read, and the lines it had. */
      const exportPeak = async (query: string): Promise<{ lines: number; above: number }> => {
        // Reset the kernel's peak to the current resident size, then take that as idle.
        writeFileSync(`/proc/${api.pid}/clear_refs`, '5');
        const idle = api.residentBytes();
        const response = await fetch(`${api.baseUrl}/v1/verifications/export${query}`, { headers: { 'x-api-key': key } });
        expect(response.status).toBe(200);
        const lines = await countLines(response);
        return { lines, above: peakResidentBytes(api.pid) - idle };
      };
      // The first 10,079 records (every 5 minutes from 2025-01-01), then all of them: a stream holds a batch of rows
      // at a time, so ten times the records must not take more memory; a buffered export would take ~50 MiB more.
      const tenth = await exportPeak('?to=2025-02-05T00:00:00Z');
      const whole = await exportPeak('');
      console.log(
        `export peaks above idle: ${tenth.lines - 1} records +${(tenth.above / MIB).toFixed(1)} MiB, ${whole.lines - 1} records +${(whole.above / MIB).toFixed(1)} MiB`,
      );
      expect([tenth.lines, whole.lines]).toEqual([10_080, EXPORTED + 1]);
      expect(whole.above - tenth.above).toBeLessThan(20 * MIB);
    } finally {
      await api.stop();
    }
  }, 120_000);
});
