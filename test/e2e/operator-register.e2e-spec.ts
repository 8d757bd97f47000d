import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Browser, Page } from 'playwright-core';
import { bucketsOf, histogramQuantile } from '../../src/metrics/register-tally';
import { ApiProcess } from '../support/api-process';
import { checkPageAt, launchChromium, openProfile } from '../support/browser';
import { request } from '../support/http';
import { joinAsOperator } from '../support/operator-join';
import { SandboxAdmin } from '../support/sandbox-admin';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { WorkerProcess } from '../support/worker-process';

const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'operator');
const LISTENER = /Operators' listener .* on ([\d.]+:\d+)/;
// Long enough that the lookup refused right after the breaker opens is refused on a busy machine too.
const COOLDOWN_SECONDS = 3;

/** The worker's /metrics as the Register page shows it: attempts by outcome, p50 and p99 of the buckets summed over outcomes. */
function scraped(text: string) {
  const outcomes: Record<string, number> = {};
  const buckets: Record<string, number> = {};
  let newPageShapes = 0;
  for (const line of text.split('\n')) {
    const lookup = /^lvs_register_lookups_total\{outcome="(\w+)"\} (\d+)$/.exec(line);
    if (lookup) outcomes[lookup[1]] = Number(lookup[2]);
    const bucket = /^lvs_register_lookup_duration_seconds_bucket\{.*le="([^"]+)".*\} (\d+)$/.exec(line);
    if (bucket) buckets[bucket[1]] = (buckets[bucket[1]] ?? 0) + Number(bucket[2]);
    const shapes = /^lvs_register_page_shape_new_total (\d+)$/.exec(line);
    if (shapes) newPageShapes = Number(shapes[1]);
  }
  const sorted = bucketsOf(buckets);
  return { outcomes, p50: histogramQuantile(0.5, sorted), p99: histogramQuantile(0.99, sorted), newPageShapes };
}

/**
 * The Register page of the operator console against a real worker process and the sandbox register: its figures are
 * the worker's own /metrics (the API counts no lookups), the breaker's changes are the ones the sandbox's faults caused,
 * and the partners' shares are their answers that took a lookup in the last hour.
 */
describe('the operator console: Register page', () => {
  let t: TestApp;
  let worker: WorkerProcess;
  let api: ApiProcess;
  let browser: Browser;
  let operatorUrl: string;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        REGISTER_BREAKER_FAILURES: '2',
        REGISTER_BREAKER_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS),
        LOOKUP_ATTEMPTS: '1',
        // A budget of 7,200 lookups an hour, so that a few answers are a share the page writes above 0.00 %.
        REGISTER_MAX_PER_SECOND: '2',
        // A beat, and so a worker's tally, every 500 ms: the page is as fresh as the test needs.
        WORKER_HEARTBEAT_TIMEOUT_MS: '1500',
      },
    });
    worker = await t.startWorker();
    api = await ApiProcess.start({ ...t.env, OPERATOR_PORT: '0' });
    operatorUrl = `http://${LISTENER.exec(api.log)![1]}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await t?.close();
  });

  const verify = (apiKey: string, licenceNumber: string) =>
    request(api.baseUrl, 'POST', '/v1/licences/verify', {
      headers: { 'x-api-key': apiKey, 'idempotency-key': `${licenceNumber}-${Math.random()}` },
      body: { licenceNumber },
    });
  const status = async (apiKey: string, licenceNumber: string) => (await verify(apiKey, licenceNumber)).status;

  /** What the page shows, read in one load. */
  async function shown(page: Page) {
    await page.goto(`${operatorUrl}/operator/register`);
    const figure = (name: string) => page.locator(`[data-figure="${name}"]`);
    const rows = (table: string) =>
      page.locator(`[${table}] tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    return {
      workers: await figure('workers').textContent(),
      phase: await figure('phase').textContent(),
      perSecond: Number(await figure('per-second').getAttribute('data-value')),
      perSecondText: await figure('per-second').textContent(),
      p50: Number(await figure('p50').getAttribute('data-value')),
      p99: Number(await figure('p99').getAttribute('data-value')),
      newPageShapes: Number(await figure('new-page-shapes').textContent()),
      oldestWaiting: await figure('oldest-waiting').textContent(),
      outcomes: Object.fromEntries((await rows('data-outcomes')).map(([outcome, count]) => [outcome, Number(count)])),
      breakerChanges: (await rows('data-breaker-changes')).map(([, phase, failures]) => [phase, Number(failures)]),
      shares: await rows('data-shares'),
    };
  }

  it("shows the workers' lookups as their /metrics counts them, the breaker's changes and each partner's share of the last hour", async () => {
    const sandbox = new SandboxAdmin(t.sandbox.url);
    const acme = await t.createKey({ name: 'Acme Register Users' });
    const bold = await t.createKey({ name: 'Bold Register Users' });
    expect(
      await Promise.all([SANDBOX_NUMBERS.active, SANDBOX_NUMBERS.expired, SANDBOX_NUMBERS.revoked].map((number) => status(acme.key, number))),
    ).toEqual([200, 200, 200]);
    expect(await status(bold.key, SANDBOX_NUMBERS.suspended)).toBe(200);
    // Two unavailable attempts in a row open the breaker; a lookup then is refused without reaching the register.
    expect(await status(bold.key, SANDBOX_NUMBERS.fault503)).toBe(503);
    expect(await status(acme.key, SANDBOX_NUMBERS.fault503)).toBe(503);
    expect(await status(acme.key, SANDBOX_NUMBERS.notFound)).toBe(503);
    expect(await sandbox.requestsFor(SANDBOX_NUMBERS.notFound)).toBe(0);
    // After the cooldown the next lookup is the probe; the register answers it, which closes the breaker.
    await sleep(COOLDOWN_SECONDS * 1000 + 200);
    expect(await status(bold.key, SANDBOX_NUMBERS.withConditions)).toBe(200);

    const { context, page } = await openProfile(browser);
    await joinAsOperator(
      page,
      { operatorUrl, cliEnv: { ...t.env, OPERATOR_PORT: new URL(operatorUrl).port } },
      {
        email: 'reg@operators.example',
        role: 'support',
        password: 'violet anchor meadow quartz 71',
      },
    );
    const workerUrl = `http://${LISTENER.exec(worker.log)![1]}`;
    // The worker writes its tally every beat and the answers' records reach PostgreSQL a moment later: the page and a
    // scrape of the worker agree once both have, and nothing changes them after (no lookup runs any more).
    const { figures, metrics } = await until(
      async () => ({ figures: await shown(page), metrics: scraped(await (await fetch(`${workerUrl}/metrics`)).text()) }),
      ({ figures, metrics }) =>
        Object.keys(metrics.outcomes).every((outcome) => figures.outcomes[outcome] === metrics.outcomes[outcome]) &&
        figures.p99 === metrics.p99 &&
        figures.shares.length === 2,
      15_000,
    );
    expect(metrics.outcomes).toEqual({ FOUND: 5, NOT_FOUND: 0, TOO_MANY_RESULTS: 0, SERVICE_UNAVAILABLE: 2, PARSE_ERROR: 0, INTERNAL_ERROR: 0 });
    expect(figures.outcomes).toEqual({ FOUND: 5, INTERNAL_ERROR: 0, NOT_FOUND: 0, PARSE_ERROR: 0, SERVICE_UNAVAILABLE: 2, TOO_MANY_RESULTS: 0 });
    expect(metrics.p50).toBeGreaterThan(0);
    expect([figures.p50, figures.p99]).toEqual([metrics.p50, metrics.p99]);
    expect([figures.newPageShapes, metrics.newPageShapes]).toEqual([0, 0]);
    expect([figures.workers, figures.phase, figures.oldestWaiting]).toEqual(['1', 'closed', 'None']);
    // 7 attempts within the last minute, over the time since the worker's first beat.
    expect(figures.perSecond).toBeGreaterThan(0);
    expect(figures.perSecondText).toBe(`${figures.perSecond.toFixed(2)} of 2 allowed`);
    expect(figures.breakerChanges).toEqual([
      ['closed', 0],
      ['half-open', 2],
      ['open', 2],
    ]);
    // Answers that took a lookup: Acme's 3, Bold's 2 (its failed one has no record), of 7,200 an hour.
    expect(figures.shares).toEqual([
      ['Acme Register Users', '3', '60.00 %', '0.04 %'],
      ['Bold Register Users', '2', '40.00 %', '0.03 %'],
    ]);
    await checkPageAt(page, SCREENSHOTS, 'register');
    await context.close();
  }, 120_000);
});
