import fc from 'fast-check';
import { ApiProcess } from '../support/api-process';
import { request } from '../support/http';
import { exchangeRaw, parseRawAnswers, sendRaw } from '../support/raw-http';
import { startTestApp, TestApp } from '../support/test-app';
import { HostileRequest, hostileRequests, Keys } from './hostile-requests';
import { judgeAnswer } from './judge-answer';

const BATCH = 16; // requests in flight at once
const RUNS = 320; // batches: 5,120 requests
const WARM_UP_REQUESTS = 400;
const ANSWER_WAIT_MS = 15_000;
const SEED = Number(process.env.RESILIENCE_SEED ?? Date.now() % 2 ** 31);

interface Outcome {
  problem: string | null;
  statuses: Array<number | 'none'>;
  ms: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

describe('hostile input: generated requests against the real API process', () => {
  let t: TestApp;
  let api: ApiProcess;
  let keys: Keys;

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true });
    api = await ApiProcess.start({ ...t.env, LOG_LEVEL: 'log' }, { inspect: true });
    keys = { unlimited: (await t.createKey()).key, small: (await t.createKey({ quota: 3 })).key };
  });
  afterAll(async () => {
    await api?.stop();
    await t?.close();
  });

  /** Sends one request on its own connection and judges every answer that comes back. */
  async function send(hostile: HostileRequest): Promise<Outcome> {
    const started = Date.now();
    const exchange = hostile.complete
      ? await sendRaw(api.baseUrl, hostile.bytes, ANSWER_WAIT_MS)
      : await exchangeRaw(api.baseUrl, (socket) => socket.end(hostile.bytes), { waitMs: ANSWER_WAIT_MS });
    const ms = Date.now() - started;
    const { answers, rest } = parseRawAnswers(exchange.received);
    const problems = answers.map(judgeAnswer).filter((problem) => problem !== null);
    if (rest !== '') problems.push(`bytes that are no HTTP answer: ${JSON.stringify(rest.slice(0, 200))}`);
    if (hostile.complete && answers.length === 0) problems.push('no answer to a complete request');
    const statuses = answers.length === 0 ? ['none' as const] : answers.map((answer) => answer.status);
    const problem =
      problems.length === 0 ? null : `${hostile.kind}: ${problems.join('; ')}\n  sent: ${JSON.stringify(hostile.bytes.toString('latin1').slice(0, 400))}`;
    return { problem, statuses, ms };
  }

  it('answers every one inside the contract, never 500, and gives back its memory', async () => {
    const generated = hostileRequests(keys);
    for (const hostile of fc.sample(generated, { numRuns: WARM_UP_REQUESTS, seed: SEED + 1 })) await send(hostile);
    await api.collectGarbage();
    const residentAtStart = api.residentBytes();

    const outcomes: Outcome[] = [];
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(generated, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const results = await Promise.all(batch.map(send));
        outcomes.push(...results);
        expect(results.map((result) => result.problem).filter((problem) => problem !== null)).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    const seconds = (Date.now() - started) / 1000;

    // V8 collects lazily: compare after a full collection at both ends, as a leak survives one.
    await api.collectGarbage();
    const residentAtEnd = api.residentBytes();

    const byStatus: Record<string, number> = {};
    for (const status of outcomes.flatMap((outcome) => outcome.statuses)) byStatus[status] = (byStatus[status] ?? 0) + 1;
    const times = outcomes.map((outcome) => outcome.ms).sort((a, b) => a - b);
    const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
    console.log(
      `hostile input (seed ${SEED}): ${outcomes.length} requests in ${seconds.toFixed(1)} s, ${BATCH} at a time; ` +
        `answers by status ${JSON.stringify(byStatus)}; answer time p50 ${percentile(times, 50)} ms, ` +
        `p95 ${percentile(times, 95)} ms, max ${times[times.length - 1]} ms; ` +
        `API resident memory ${mib(residentAtStart)} MiB after warm-up, ${mib(residentAtEnd)} MiB at the end`,
    );

    expect(outcomes.length).toBeGreaterThanOrEqual(5000);
    expect(byStatus['500']).toBeUndefined();
    expect(residentAtEnd).toBeLessThanOrEqual(residentAtStart * 1.1);
  }, 240_000);

  it('still serves a plain verification and refuses an empty body afterwards (no prototype was polluted)', async () => {
    const found = await request(api.baseUrl, 'POST', '/v1/licences/verify', {
      headers: { 'x-api-key': keys.unlimited },
      body: { licenceNumber: '1011001544208079' },
    });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ status: 'FOUND', licence: { licenceNumber: '1011001544208079', surname: 'DOE' } });
    const empty = await request(api.baseUrl, 'POST', '/v1/licences/verify', { headers: { 'x-api-key': keys.unlimited }, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ code: 'VALIDATION_ERROR', message: 'Licence number must be 16 digits' });
  });

  it('logged no error and no stack trace while under attack', () => {
    // The inspector (opened for collectGarbage) announces itself in plain text.
    const lines = api.log.split('\n').filter((line) => line.trim() !== '' && !/^(Debugger |For help, see: )/.test(line));
    expect(lines.filter((line) => /"level":(50|60)\b/.test(line) || !line.startsWith('{'))).toEqual([]);
  });
});
