import { connect, Socket } from 'node:net';
import { Client } from 'pg';
import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { ApiProcess } from '../support/api-process';
import { insertRecords } from '../support/bulk-records';
import { request, TestResponse, verify } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const RECORDS = 50_000;

/** A download whose client reads its answer's head, then stops reading (a paused socket): the slowest possible reader. */
interface SlowDownload {
  socket: Socket;
  /** what arrived before the pause, as latin1 */
  head: string;
  /** the CSV lines (and head lines) received in all */
  lines: number;
  closed: boolean;
}

function startSlowDownload(baseUrl: string, key: string): Promise<SlowDownload> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const download: SlowDownload = { socket, head: '', lines: 0, closed: false };
    socket.on('connect', () => socket.write(`GET /v1/verifications/export HTTP/1.1\r\nHost: ${hostname}\r\nx-api-key: ${key}\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 0x0a) download.lines++;
      if (download.head !== '') return;
      socket.pause();
      download.head = chunk.toString('latin1');
      resolve(download);
    });
    socket.on('error', () => undefined); // the server cutting the download is judged by `closed`
    socket.on('close', () => {
      download.closed = true;
      reject(new Error('closed before any answer'));
    });
  });
}

function statusOf(head: string): number {
  return Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]);
}

describe('CSV exports on a real API process: no partner can take the database from the others', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true });
  });
  afterAll(() => t.close());

  it('leaves another partner verify, history and readiness while one partner opens 22 slow exports, of which only two run', async () => {
    const exporter = await t.createKey();
    await insertRecords(t.db, exporter.userId, exporter.keyId, RECORDS);
    const other = await t.createKey({ quota: 10 });
    const api = await ApiProcess.start(t.env);
    const downloads: SlowDownload[] = [];
    try {
      downloads.push(...(await Promise.all(Array.from({ length: 22 }, () => startSlowDownload(api.baseUrl, exporter.key)))));
      expect(downloads.map((download) => statusOf(download.head)).sort()).toEqual([200, 200, ...Array<number>(20).fill(429)]);
      for (const refused of downloads.filter((download) => statusOf(download.head) === 429)) {
        expect(refused.head).toMatch(/\r\nretry-after: 10\r\n/i);
        expect(refused.head.slice(refused.head.indexOf('\r\n\r\n') + 4)).toBe(
          '{"code":"RATE_LIMITED","message":"Too many requests; retry after the time in Retry-After"}',
        );
      }
      const third = await request(api.baseUrl, 'GET', '/v1/verifications/export', { headers: { 'x-api-key': exporter.key } });
      expect([third.status, third.headers.get('retry-after'), third.body]).toEqual([
        429,
        '10',
        { code: 'RATE_LIMITED', message: 'Too many requests; retry after the time in Retry-After' },
      ]);

      // More requests at once than the pool has connections, while the two downloads stay open and unread.
      const history = (): Promise<TestResponse> => request(api.baseUrl, 'GET', '/v1/verifications', { headers: { 'x-api-key': other.key } });
      const answers = await Promise.all([
        verify(api.baseUrl, other.key, SANDBOX_NUMBERS.active, 'during-exports'),
        request(api.baseUrl, 'GET', '/health/ready'),
        request(api.baseUrl, 'GET', '/v1/verifications', { headers: { 'x-api-key': 'lvs_unknown_key_during_exports' } }),
        ...Array.from({ length: 24 }, history),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401, ...Array<number>(24).fill(200)]);
      expect(downloads.filter((download) => statusOf(download.head) === 200 && download.closed)).toEqual([]);

      // Aborted downloads give their places back: the exporter may export again.
      for (const download of downloads) download.socket.destroy();
      const again = await until(
        () => request(api.baseUrl, 'GET', '/v1/verifications/export?to=2025-01-01T01:00:00Z', { headers: { 'x-api-key': exporter.key } }),
        (answer) => answer.status === 200,
        10_000,
      );
      expect(again.text.split('\r\n').filter((line) => line !== '')).toHaveLength(1 + 11);
    } finally {
      for (const download of downloads) download.socket.destroy();
      await api.stop();
    }
  }, 120_000);

  it('cuts a download read slower than EXPORT_MIN_BYTES_PER_SECOND and gives its place back', async () => {
    const exporter = await t.createKey();
    await insertRecords(t.db, exporter.userId, exporter.keyId, RECORDS);
    const api = await ApiProcess.start({ ...t.env, EXPORT_MIN_BYTES_PER_SECOND: '100000000' });
    const downloads: SlowDownload[] = [];
    try {
      downloads.push(await startSlowDownload(api.baseUrl, exporter.key), await startSlowDownload(api.baseUrl, exporter.key));
      expect(downloads.map((download) => statusOf(download.head))).toEqual([200, 200]);
      // A paused socket hears nothing of the cut; the exporter's places coming back show it (both: two exports at once
      // are let through, as one place alone came back when only the first download had been cut), and reading on then
      // ends short.
      const exportAgain = () =>
        request(api.baseUrl, 'GET', '/v1/verifications/export?to=2025-01-01T01:00:00Z', { headers: { 'x-api-key': exporter.key } });
      const again = await until(
        () => Promise.all([exportAgain(), exportAgain()]),
        (answers) => answers.every((answer) => answer.status === 200),
        60_000,
      );
      expect(again.map((answer) => answer.text.split('\r\n').filter((line) => line !== '').length)).toEqual([1 + 11, 1 + 11]);
      for (const download of downloads) download.socket.resume();
      await until(
        () => downloads.filter((download) => download.closed).length,
        (closed) => closed === 2,
        30_000,
      );
      for (const download of downloads) expect(download.lines).toBeLessThan(RECORDS);
    } finally {
      for (const download of downloads) download.socket.destroy();
      await api.stop();
    }
  }, 120_000);

  it('answers 503, never 500, to an unknown key and a history page while the pool has no free connection', async () => {
    const partner = await t.createKey();
    const api = await ApiProcess.start({ ...t.env, DATABASE_STATEMENT_TIMEOUT_MS: '20000' });
    const locker = new Client({ connectionString: t.env.DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE verification_records IN ACCESS EXCLUSIVE MODE');
      // More history pages than the pool has connections wait on the lock (those that get no connection answer 503).
      const held = Array.from({ length: 25 }, () => request(api.baseUrl, 'GET', '/v1/verifications', { headers: { 'x-api-key': partner.key } }));
      await until(
        async () =>
          (
            await t.db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          ).rows[0].n,
        (waiting) => waiting >= 15,
        20_000,
      );
      const unknown = await request(api.baseUrl, 'GET', '/v1/verifications', { headers: { 'x-api-key': 'lvs_unknown_key_with_no_pool' } });
      expect([unknown.status, unknown.body]).toEqual([
        503,
        { code: 'SERVICE_UNAVAILABLE', message: 'Upstream service is temporarily unavailable; try again later' },
      ]);
      await locker.query('ROLLBACK');
      const statuses = (await Promise.all(held)).map((answer) => answer.status);
      expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(15);
    } finally {
      await locker.end();
      await api.stop();
    }
  }, 120_000);
});
