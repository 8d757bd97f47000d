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

// The default: a verification that needs a dependency which does not answer must be refused within 1 s.
const DEPENDENCY_TIMEOUT_MS = 800;
const OUTAGE_MS = 4000;
// Answer-time bound for a loaded 2-core machine: the timeout, plus scheduling and the client's own queueing.
const FAIL_FAST_BOUND_MS = DEPENDENCY_TIMEOUT_MS + 1500;
const RECOVERY_BOUND_MS = 2000;
const SERVICE_UNAVAILABLE = JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: ERROR_CODES.SERVICE_UNAVAILABLE.message });

interface Outage {
  name: string;
  begin(rig: FaultRig): Promise<void> | void;
  end(rig: FaultRig): Promise<void> | void;
  /** the statuses an answer may have while the dependency is away, by whether its number is new */
  allowedDuring: { fresh: number[]; warm: number[] };
  /** how fast an answer refused during the outage must come */
  refusalBoundMs: number;
  /** a Redis outage: the API logs one warning when it starts and one line when it ends */
  redis?: boolean;
}

const count = (text: string, fragment: string) => text.split(fragment).length - 1;

/** Time until readiness says 200 again, polled every 100 ms, and whether a new verification then succeeds at once. */
async function awaitReadiness(rig: FaultRig, user: TestKey, since: number): Promise<{ readyAfterMs: number; firstVerify: Answer }> {
  for (;;) {
    const ready = await fetch(`${rig.baseUrl}/health/ready`).then(
      (response) => response.status,
      () => 0,
    );
    if (ready === 200) {
      const readyAfterMs = Date.now() - since;
      const check = await verifyOnce(rig.baseUrl, user, newNumber(), true, since);
      return { readyAfterMs, firstVerify: check };
    }
    if (Date.now() - since > 20_000) throw new Error('readiness never came back');
    await sleep(100);
  }
}

describe('our own dependencies fail fast and come back fast, under steady load', () => {
  let rig: FaultRig;
  let users: TestKey[];
  const warm = WARM_NUMBERS;
  const allAnswers: Answer[] = [];

  beforeAll(async () => {
    // Keys age out of the API's cache within every outage below, so that a key read again from a database that cannot
    // answer is part of each scenario rather than a matter of when the outage falls.
    rig = await FaultRig.start({ AUTH_CACHE_TTL_SECONDS: '2' });
    users = await rig.warmUsers(3);
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
  });

  async function runOutage(outage: Outage): Promise<void> {
    const warningsBefore = count(rig.api!.log, 'Redis unreachable');
    const recoveriesBefore = count(rig.api!.log, 'Redis reachable again');
    const load = new SteadyLoad(() => rig.baseUrl, users, warm);
    await sleep(1500);
    const began = load.now();
    await outage.begin(rig);
    // Readiness during the outage, from the same process that serves the requests.
    await sleep(OUTAGE_MS / 2);
    const readyDuring = await fetch(`${rig.baseUrl}/health/ready`, { signal: AbortSignal.timeout(10_000) }).then((response) => response.status);
    await sleep(OUTAGE_MS / 2);
    const ended = load.now();
    const endedAt = Date.now();
    await outage.end(rig);
    const readiness = await awaitReadiness(rig, users[0], endedAt);
    await sleep(3000);
    const answers = await load.stop();
    allAnswers.push(...answers, readiness.firstVerify);

    const problems = unexpectedAnswers(answers, { fresh: [200, 202, 404, 503], warm: [200, 503] });
    // The API's error lines explain a problem (a 500 above all); some are expected here (a 500 of the quota endpoint).
    expect({ problems, apiErrors: problems.length > 0 ? rig.apiErrors() : [] }).toEqual({ problems: [], apiErrors: [] });
    // Sent after the fault began (a moment for it to bite) and answered before it ended.
    const during = answers.filter((answer) => answer.sentAt > began + 300 && answer.sentAt + answer.ms < ended);
    const refusedLate = during.filter((answer) => answer.status === 503 && answer.ms > outage.refusalBoundMs);
    const unexpected = during.filter(
      (answer) => !(answer.fresh ? outage.allowedDuring.fresh : outage.allowedDuring.warm).includes(answer.status as number),
    );
    const after = answers.filter((answer) => answer.sentAt > ended + RECOVERY_BOUND_MS);
    const failingAfter = after.filter((answer) => ![200, 202, 404].includes(answer.status as number));
    const firstGood = answers.find((answer) => answer.sentAt >= ended && [200, 404].includes(answer.status as number) && answer.fresh);

    // The ledger holds every scenario of this file so far: judge it against all their answers.
    const ledger = await settleLedger(rig, allAnswers, users);
    report(outage.name, {
      ...loadFigures(answers),
      duringOutage: { requests: during.length, byStatus: countByStatus(during), answerMs: timing(during) },
      readinessDuring: readyDuring,
      readyAfterMs: readiness.readyAfterMs,
      firstVerifyWhenReady: readiness.firstVerify.status,
      firstNewNumberAnsweredAfterMs: firstGood ? firstGood.sentAt + firstGood.ms - ended : null,
      charges: { expected: ledger.expected, found: ledger.found, pendingRetried: ledger.retried },
    });

    expect(during.length).toBeGreaterThan(20);
    expect(unexpected.map((answer) => `${answer.fresh ? 'new' : 'warm'} ${answer.status} ${answer.body}`)).toEqual([]);
    expect(during.filter((answer) => answer.status === 503).every((answer) => answer.body === SERVICE_UNAVAILABLE)).toBe(true);
    expect(refusedLate.map((answer) => answer.ms)).toEqual([]);
    expect(readyDuring).toBe(503);
    expect(readiness.readyAfterMs).toBeLessThan(RECOVERY_BOUND_MS);
    expect([200, 202, 404]).toContain(readiness.firstVerify.status);
    expect(after.length).toBeGreaterThan(20);
    expect(failingAfter.map((answer) => `${answer.status} ${answer.body}`)).toEqual([]);
    expect(ledger.mismatches).toEqual([]);
    if (outage.redis) {
      // JSON logs are buffered: wait for the recovery line, then count.
      const deadline = Date.now() + 10_000;
      while (count(rig.api!.log, 'Redis reachable again') === recoveriesBefore && Date.now() < deadline) await sleep(100);
      expect([count(rig.api!.log, 'Redis unreachable') - warningsBefore, count(rig.api!.log, 'Redis reachable again') - recoveriesBefore]).toEqual([1, 1]);
      expect(rig.api!.log.split('\n').filter((line) => line !== '' && !line.startsWith('{'))).toEqual([]);
    }
  }

  it('Redis down and back: 503 within the dependency timeout, uncharged; service and readiness back within 2 s', async () => {
    await runOutage({
      name: 'redis-down',
      begin: (r) => r.redis.stop(),
      end: (r) => r.redis.resume(),
      allowedDuring: { fresh: [503], warm: [503] },
      refusalBoundMs: FAIL_FAST_BOUND_MS,
      redis: true,
    });
  }, 90_000);

  it('Redis frozen (SIGSTOP) and thawed: the same', async () => {
    await runOutage({
      name: 'redis-frozen',
      begin: (r) => r.redis.freeze(),
      end: (r) => r.redis.thaw(),
      allowedDuring: { fresh: [503], warm: [503] },
      refusalBoundMs: FAIL_FAST_BOUND_MS,
      redis: true,
    });
  }, 90_000);

  it('PostgreSQL down and back: cached repeats still answered, new numbers 503 uncharged, quota usage 500', async () => {
    let usageDuring: { status: number; body: string; ms: number } | null = null;
    await runOutage({
      name: 'postgres-down',
      begin: async (r) => {
        await r.postgres.stop();
        const started = Date.now();
        const response = await fetch(`${r.baseUrl}/v1/quota/usage`, { headers: { 'x-api-key': users[0].key } });
        usageDuring = { status: response.status, body: await response.text(), ms: Date.now() - started };
      },
      end: (r) => r.postgres.resume(),
      allowedDuring: { fresh: [503], warm: [200] },
      refusalBoundMs: FAIL_FAST_BOUND_MS,
    });
    report('postgres-down-quota-usage', { status: usageDuring!.status, ms: usageDuring!.ms });
    expect(usageDuring).toEqual({
      status: 500,
      body: JSON.stringify({ code: 'INTERNAL_ERROR', message: ERROR_CODES.INTERNAL_ERROR.message }),
      ms: expect.any(Number),
    });
    expect(usageDuring!.ms).toBeLessThan(FAIL_FAST_BOUND_MS);
  }, 90_000);

  it('PostgreSQL frozen (SIGSTOP) and thawed: cached repeats answered, new numbers 503, nothing charged twice or lost', async () => {
    await runOutage({
      name: 'postgres-frozen',
      begin: (r) => r.postgres.freeze(),
      end: (r) => r.postgres.thaw(),
      allowedDuring: { fresh: [503], warm: [200] },
      // A frozen server keeps its pooled connections open: a charge gives up at its own deadline (800 ms).
      refusalBoundMs: FAIL_FAST_BOUND_MS,
    });
  }, 90_000);

  it('PostgreSQL frozen: a new verification answers 503 within 1 s, and its charge never appears after the thaw', async () => {
    const user = users[1];
    const licenceNumber = newNumber();
    const before = await rig.ledger(user.userId);
    rig.postgres.freeze();
    let answer: Answer;
    try {
      answer = await verifyOnce(rig.baseUrl, user, licenceNumber, true, Date.now());
    } finally {
      rig.postgres.thaw();
    }
    // Whatever the server still had of the charge runs now: give it time to commit, were it to.
    await sleep(3000);
    await rig.untilSettled();
    const after = await rig.ledger(user.userId);
    report('postgres-frozen-single', { status: answer.status, ms: answer.ms, chargedAfterThaw: after.charged.includes(licenceNumber) });

    expect({ status: answer.status, body: answer.body }).toEqual({ status: 503, body: SERVICE_UNAVAILABLE });
    expect(answer.ms).toBeLessThan(1000);
    expect(after).toEqual(before);
  }, 30_000);

  // Freezing is synchronous and stopping is not: each step is awaited either way.
  it.each<[string, (r: FaultRig) => void | Promise<void>, (r: FaultRig) => void | Promise<void>]>([
    ['frozen (SIGSTOP)', (r: FaultRig) => r.redis.freeze(), (r: FaultRig) => r.redis.thaw()],
    ['down', (r: FaultRig) => r.redis.stop(), (r: FaultRig) => r.redis.resume()],
  ])(
    'Redis %s: a repeat and a new number each answer 503 within 1 s; a new number is answered within 3 s of recovery',
    async (name, begin, end) => {
      const user = users[2];
      await begin(rig);
      let during: Answer[];
      try {
        await sleep(200);
        // Together: a request whose Redis commands queue behind another's must not wait out a timeout of each.
        during = await Promise.all([
          verifyOnce(rig.baseUrl, user, WARM_NUMBERS[0], false, Date.now()),
          verifyOnce(rig.baseUrl, user, newNumber(), true, Date.now()),
        ]);
      } finally {
        await end(rig);
      }
      const recoveredAt = Date.now();
      let answered: Answer;
      do answered = await verifyOnce(rig.baseUrl, user, newNumber(), true, recoveredAt);
      while (![200, 404].includes(answered.status as number) && Date.now() - recoveredAt < 10_000);
      const backAfterMs = answered.sentAt + answered.ms;
      report(`redis-${name.split(' ')[0]}-single`, { during: during.map((answer) => ({ status: answer.status, ms: answer.ms })), backAfterMs });

      expect(during.map((answer) => ({ status: answer.status, body: answer.body }))).toEqual([
        { status: 503, body: SERVICE_UNAVAILABLE },
        { status: 503, body: SERVICE_UNAVAILABLE },
      ]);
      expect(during.map((answer) => answer.ms).filter((ms) => ms >= 1000)).toEqual([]);
      expect(answered.status).toBe(404);
      expect(backAfterMs).toBeLessThan(3000);
    },
    30_000,
  );
});
