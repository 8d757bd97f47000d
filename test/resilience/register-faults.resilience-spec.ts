import { setTimeout as sleep } from 'node:timers/promises';
import { ERROR_CODES } from '../../src/errors/error-codes';
import {
  Answer,
  countByStatus,
  FaultRig,
  loadFigures,
  newNumber,
  report,
  settleLedger,
  SteadyLoad,
  TestKey,
  timing,
  unexpectedAnswers,
  verifyOnce,
  WARM_NUMBERS,
} from './fault-rig';

const COOLDOWN_SECONDS = 3;
const LOOKUP_ATTEMPTS = 3;
const SERVICE_UNAVAILABLE = JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: ERROR_CODES.SERVICE_UNAVAILABLE.message });
// A refusal by the open breaker involves no lookup: a loaded 2-core machine still answers it well under this.
const BREAKER_REFUSAL_BOUND_MS = 500;

async function breakerState(rig: FaultRig): Promise<{ metric: string; readiness: unknown }> {
  const metrics = await (await fetch(`${rig.baseUrl}/metrics`)).text();
  const metric = /^lvs_register_breaker_state\{state="([a-z-]+)"\} 1$/m.exec(metrics)?.[1] ?? 'none';
  const ready = (await (await fetch(`${rig.baseUrl}/health/ready`)).json()) as { info?: { registerBreaker?: unknown } };
  return { metric, readiness: ready.info?.registerBreaker };
}

describe('the register down, slow and back: breaker and retry bounds, under steady load', () => {
  let rig: FaultRig;
  let users: TestKey[];
  const warm = WARM_NUMBERS;
  const allAnswers: Answer[] = [];

  beforeAll(async () => {
    rig = await FaultRig.start({
      REGISTER_BREAKER_FAILURES: '5',
      REGISTER_BREAKER_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS),
      LOOKUP_ATTEMPTS: String(LOOKUP_ATTEMPTS),
      REGISTER_REQUEST_TIMEOUT_MS: '4000',
    });
    users = await rig.warmUsers(3);
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('opens the breaker when the register is down (503 at once, uncharged, cache still served), keeps it open while slow, closes when back', async () => {
    const load = new SteadyLoad(() => rig.baseUrl, users, warm, { clients: 20, newShare: 0.3 });
    await sleep(1500);
    const downAt = load.now();
    await rig.sandboxAdmin.setFault({ fault: 'status-503' });
    await sleep(4000);
    const whileDown = await breakerState(rig);
    const upstreamAtOpen = (await rig.sandboxAdmin.counts()).total;
    // Slower than the 4 s request timeout every time, so that each probe finds it unavailable.
    await rig.sandboxAdmin.setFault({ fault: 'none', latencyMs: 4500, latencyMaxMs: 6000 });
    await sleep(2 * COOLDOWN_SECONDS * 1000);
    // While open, only probes (one per cooldown, each up to LOOKUP_ATTEMPTS requests) reach the register.
    const upstreamWhileSlow = (await rig.sandboxAdmin.counts()).total - upstreamAtOpen;
    const whileSlow = await breakerState(rig);
    await rig.sandboxAdmin.clearFaults();
    const backAt = load.now();
    let closedAfterMs = -1;
    while (closedAfterMs < 0 && load.now() - backAt < 4 * COOLDOWN_SECONDS * 1000 + 10_000) {
      if ((await breakerState(rig)).metric === 'closed') closedAfterMs = load.now() - backAt;
      else await sleep(100);
    }
    await sleep(2000);
    const settledAt = load.now();
    await sleep(2000);
    const answers = await load.stop();
    allAnswers.push(...answers);
    const ledger = await settleLedger(rig, allAnswers, users);

    const inFault = answers.filter((answer) => answer.sentAt > downAt && answer.sentAt < backAt);
    const breakerRefusals = inFault.filter((answer) => answer.fresh && answer.status === 503 && answer.ms < BREAKER_REFUSAL_BOUND_MS);
    const afterClosed = answers.filter((answer) => answer.sentAt > settledAt);
    const firstAnsweredAfterBack = answers.find((answer) => answer.sentAt > backAt && answer.fresh && answer.status === 404);
    report('register-down-slow-back', {
      ...loadFigures(answers),
      whileDownOrSlow: { fresh: countByStatus(inFault.filter((answer) => answer.fresh)), warm: countByStatus(inFault.filter((answer) => !answer.fresh)) },
      breakerRefusals: { count: breakerRefusals.length, answerMs: timing(breakerRefusals) },
      breakerWhileDown: whileDown,
      breakerWhileSlow: whileSlow,
      upstreamRequestsWhileOpenAndSlow: upstreamWhileSlow,
      breakerClosedAfterMs: closedAfterMs,
      firstNewNumberAnsweredAfterMs: firstAnsweredAfterBack ? firstAnsweredAfterBack.sentAt + firstAnsweredAfterBack.ms - backAt : null,
      charges: { expected: ledger.expected, found: ledger.found, pendingRetried: ledger.retried },
    });

    expect(unexpectedAnswers(answers, { fresh: [202, 404, 503], warm: [200] })).toEqual([]);
    expect(inFault.filter((answer) => answer.status === 503).every((answer) => answer.body === SERVICE_UNAVAILABLE)).toBe(true);
    expect(breakerRefusals.length).toBeGreaterThan(20);
    expect(whileDown).toMatchObject({ metric: 'open', readiness: { status: 'up', state: 'open', register: 'degraded' } });
    expect(['open', 'half-open']).toContain(whileSlow.metric);
    // two cooldowns: at most two probes (and a retry or two of a job admitted just before opening)
    expect(upstreamWhileSlow).toBeLessThanOrEqual(3 * LOOKUP_ATTEMPTS);
    expect(closedAfterMs).toBeGreaterThanOrEqual(0);
    expect(closedAfterMs).toBeLessThan(COOLDOWN_SECONDS * 1000 + 8000);
    expect(afterClosed.filter((answer) => ![200, 404].includes(answer.status as number)).map((answer) => answer.status)).toEqual([]);
    expect(afterClosed.length).toBeGreaterThan(20);
    expect(ledger.mismatches).toEqual([]);
  }, 120_000);

  it(`asks a slow register (3-6 s against a 4 s timeout) at most ${LOOKUP_ATTEMPTS} times per number, with backoff`, async () => {
    await rig.sandboxAdmin.resetCounts();
    await rig.sandboxAdmin.setFault({ fault: 'none', latencyMs: 3000, latencyMaxMs: 6000 });
    const numbers = Array.from({ length: 30 }, () => newNumber());
    const startedAt = Date.now();
    // All at once, before the breaker can open: every one is admitted and retried by the queue alone.
    const answers = await Promise.all(numbers.map((number, index) => verifyOnce(rig.baseUrl, users[index % users.length], number, true, startedAt)));
    allAnswers.push(...answers);
    await rig.untilSettled(60_000);
    await rig.sandboxAdmin.clearFaults();
    const counts = await rig.sandboxAdmin.counts();
    const perNumber = numbers.map((number) => counts.byLicence[number] ?? 0);
    const ledger = await settleLedger(rig, allAnswers, users);
    report('register-slow-retry-bound', {
      numbers: numbers.length,
      byStatus: countByStatus(answers),
      answerMs: timing(answers),
      upstreamRequests: perNumber.reduce((sum, count) => sum + count, 0),
      maxPerNumber: Math.max(...perNumber),
      charges: { expected: ledger.expected, found: ledger.found, pendingRetried: ledger.retried },
    });
    expect(unexpectedAnswers(answers, { fresh: [202, 404, 503], warm: [] })).toEqual([]);
    expect(Math.max(...perNumber)).toBeLessThanOrEqual(LOOKUP_ATTEMPTS);
    expect(Math.min(...perNumber)).toBeGreaterThanOrEqual(1);
    expect(ledger.mismatches).toEqual([]);
  }, 120_000);
});
