import { setTimeout as sleep } from 'node:timers/promises';
import { RunningSandbox, startSandbox } from '@lvs/register-sandbox';
import { FOUND_SANDBOX_NUMBERS } from '@lvs/test-register';
import Redis from 'ioredis';
import { randomInt } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ApiProcess } from '../support/api-process';
import { runAdminCli } from '../support/admin-cli';
import { PrivatePostgres } from '../support/private-postgres';
import { PrivateRedis } from '../support/private-redis';
import { SandboxAdmin } from '../support/sandbox-admin';
import { WorkerProcess } from '../support/worker-process';
import { judgeAnswer } from './judge-answer';

/** Where every scenario appends its figures, one JSON line each, for the issue's note. */
export const SUMMARY_FILE = join(tmpdir(), 'lvs-resilience-summary.jsonl');

/** Numbers every scenario's users verify first, so that the load's repeats are cached and charged. */
export const WARM_NUMBERS = FOUND_SANDBOX_NUMBERS.slice(0, 4);

export interface TestKey {
  key: string;
  userId: string;
}

/** The Redis of a rig: one server (PrivateRedis), a Sentinel set-up or a cluster, all private to the scenario. */
export interface RigRedis {
  /** the service's settings that point it there */
  readonly serviceSettings: Record<string, string>;
  /** a client of the test's own that reads every key under `prefix` */
  client(prefix: string): Redis | Promise<Redis>;
  destroy(): Promise<void>;
}

/**
 * Everything a fault scenario needs, private to it: its own PostgreSQL and Redis on free ports
 * (stopped, frozen and restarted at will), the sandbox register, and the real API and worker
 * processes.
 */
export class FaultRig<R extends RigRedis = PrivateRedis> {
  readonly sandboxAdmin: SandboxAdmin;
  api: ApiProcess | null = null;
  worker: WorkerProcess | null = null;

  private constructor(
    readonly postgres: PrivatePostgres,
    readonly redis: R,
    readonly sandbox: RunningSandbox,
    readonly env: Record<string, string>,
  ) {
    this.sandboxAdmin = new SandboxAdmin(sandbox.url);
  }

  /** A rig on a single redis-server of its own. */
  static async start(env: Record<string, string> = {}): Promise<FaultRig> {
    return FaultRig.startOn(await PrivateRedis.start(), env);
  }

  /** A rig on `redis`, which the rig destroys when it closes. */
  static async startOn<R extends RigRedis>(redis: R, env: Record<string, string> = {}): Promise<FaultRig<R>> {
    const [postgres, sandbox] = await Promise.all([PrivatePostgres.start(), startSandbox({ port: 0 })]);
    const rig = new FaultRig(postgres, redis, sandbox, {
      DATABASE_URL: postgres.url('lvs_resilience'), // created and migrated by the API at start-up
      REDIS_PREFIX: 'lvs',
      ...redis.serviceSettings,
      REGISTER_URL: sandbox.url,
      REGISTER_MAX_PER_SECOND: '500',
      REGISTER_REQUEST_TIMEOUT_MS: '1500',
      LOOKUP_BACKOFF_MS: '50',
      WORKER_HTTP_PORT: '0',
      WORKER_LOCK_DURATION_MS: '5000',
      WORKER_STALLED_INTERVAL_MS: '2000',
      LOG_FORMAT: 'json',
      // Hostile floods and outages are these scenarios' subject, not the limits: rate-limit.e2e-spec has those.
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      AUTH_FAILURES_PER_MINUTE: '1000000',
      ...env,
    });
    await rig.startApi();
    await rig.startWorker();
    return rig;
  }

  get baseUrl(): string {
    if (!this.api) throw new Error('no API process is running');
    return this.api.baseUrl;
  }

  async startApi(): Promise<ApiProcess> {
    this.api = await ApiProcess.start({ ...this.env, LOG_LEVEL: 'log' });
    return this.api;
  }

  async startWorker(env: Record<string, string> = {}): Promise<WorkerProcess> {
    this.worker = await WorkerProcess.start({ ...this.env, ...env, LOG_LEVEL: 'log' });
    return this.worker;
  }

  async createKey(quota: number | null = null): Promise<TestKey> {
    const created = await runAdminCli(this.env, 'create', '--name', 'resilience', ...(quota === null ? [] : ['--quota', String(quota)]));
    if (created.status !== 0) throw new Error(`admin create failed: ${created.stderr}`);
    return JSON.parse(created.stdout) as TestKey;
  }

  /** `count` users without a quota, each having verified (and been charged for) every warm number. */
  async warmUsers(count: number): Promise<TestKey[]> {
    const users = await Promise.all(Array.from({ length: count }, () => this.createKey()));
    for (const user of users) {
      for (const number of WARM_NUMBERS) {
        const answer = await verifyOnce(this.baseUrl, user, number, false, Date.now());
        if (answer.status !== 200) throw new Error(`warming ${number} answered ${answer.status}: ${answer.body}`);
      }
    }
    return users;
  }

  /** The ledger: every number charged to the user this period, and the usage counter. */
  async ledger(userId: string): Promise<{ charged: string[]; used: number }> {
    const db = new Client({ connectionString: this.env.DATABASE_URL });
    await db.connect();
    try {
      const charges = await db.query<{ licence_number: string }>('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId]);
      const usage = await db.query<{ used: number }>('SELECT coalesce(sum(used), 0)::int AS used FROM quota_usage WHERE user_id = $1', [userId]);
      return { charged: charges.rows.map((row) => row.licence_number.trim()), used: usage.rows[0].used };
    } finally {
      await db.end();
    }
  }

  /** Runs `read` against the private Redis on a connection of the test's own. */
  async withRedis<T>(read: (redis: Redis) => Promise<T>): Promise<T> {
    const redis = await this.redis.client(this.env.REDIS_PREFIX);
    try {
      return await read(redis);
    } finally {
      redis.disconnect();
    }
  }

  /** Waits until no lookup waits, runs or is delayed and every finished one is settled (payers index empty). */
  async untilSettled(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const prefix = this.env.REDIS_PREFIX;
      const busy = await this.withRedis(async (redis) => {
        const [waiting, prioritized, active, delayed, unsettled] = await Promise.all([
          redis.llen(`${prefix}:bull:register-lookup:wait`),
          redis.zcard(`${prefix}:bull:register-lookup:prioritized`),
          redis.llen(`${prefix}:bull:register-lookup:active`),
          redis.zcard(`${prefix}:bull:register-lookup:delayed`),
          redis.zcard(`${prefix}:payers-index`),
        ]);
        return waiting + prioritized + active + delayed + unsettled;
      });
      if (busy === 0) return;
      if (Date.now() > deadline) throw new Error(`lookups still busy or unsettled after ${timeoutMs} ms: ${busy}`);
      await sleep(200);
    }
  }

  /** The API's error-level log lines (pino level 50 and above), each cut short: what explains a 500. */
  apiErrors(): string[] {
    return (this.api?.log ?? '')
      .split('\n')
      .filter((line) => /"level":(5|6)\d/.test(line))
      .map((line) => line.slice(0, 600));
  }

  async close(): Promise<void> {
    await this.api?.stop();
    await this.worker?.stop();
    await this.sandbox.close();
    await Promise.all([this.postgres.destroy(), this.redis.destroy()]);
  }
}

/** A licence number the sandbox does not know (its not-found page), new on every call. */
export function newNumber(): string {
  return `177${String(randomInt(0, 10 ** 13)).padStart(13, '0')}`;
}

export interface Answer {
  /** ms from the start of the load when the request was sent */
  sentAt: number;
  ms: number;
  status: number | 'none';
  body: string;
  /** why the answer is outside the contract, or null */
  problem: string | null;
  userId: string;
  licenceNumber: string;
  fresh: boolean;
}

/** Sends one verification and judges the answer against the contract (status and exact body). */
export async function verifyOnce(baseUrl: string, user: TestKey, licenceNumber: string, fresh: boolean, startedAt: number): Promise<Answer> {
  const sent = Date.now();
  const base = { sentAt: sent - startedAt, userId: user.userId, licenceNumber, fresh };
  try {
    const response = await fetch(`${baseUrl}/v1/licences/verify`, {
      method: 'POST',
      headers: { 'x-api-key': user.key, 'content-type': 'application/json' },
      body: JSON.stringify({ licenceNumber }),
      signal: AbortSignal.timeout(20_000),
    });
    const body = await response.text();
    const problem = judgeAnswer({ status: response.status, headers: { 'content-type': response.headers.get('content-type') ?? '' }, body });
    return { ...base, ms: Date.now() - sent, status: response.status, body, problem };
  } catch (error) {
    return { ...base, ms: Date.now() - sent, status: 'none', body: '', problem: `no answer: ${(error as Error).message}` };
  }
}

/**
 * Steady load: `clients` loops, each sending a verification, then the next after a short pause;
 * a share `newShare` of them for a number never asked before, the rest for a warm (cached, charged) one.
 */
export class SteadyLoad {
  readonly answers: Answer[] = [];
  private running = true;
  private readonly loops: Promise<void>[];
  readonly startedAt = Date.now();

  constructor(baseUrl: () => string, users: TestKey[], warmNumbers: string[], { clients = 24, newShare = 0.3, pauseMs = 25 } = {}) {
    this.loops = Array.from({ length: clients }, async (_, client) => {
      const user = users[client % users.length];
      while (this.running) {
        const fresh = Math.random() < newShare;
        const number = fresh ? newNumber() : warmNumbers[randomInt(warmNumbers.length)];
        this.answers.push(await verifyOnce(baseUrl(), user, number, fresh, this.startedAt));
        await sleep(pauseMs);
      }
    });
  }

  /** ms since the load started */
  now(): number {
    return Date.now() - this.startedAt;
  }

  async stop(): Promise<Answer[]> {
    this.running = false;
    await Promise.all(this.loops);
    return this.answers;
  }
}

/** Answers outside the contract, or with a status the scenario does not allow for new or warm numbers. */
export function unexpectedAnswers(answers: Answer[], allowed: { fresh: number[]; warm: number[] }): string[] {
  return answers
    .filter((answer) => answer.problem !== null || !(answer.fresh ? allowed.fresh : allowed.warm).includes(answer.status as number))
    .map((answer) => `${answer.fresh ? 'new' : 'warm'} number at ${answer.sentAt} ms: ${answer.problem ?? `${answer.status} ${answer.body}`}`);
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]);

export function countByStatus(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

export function timing(answers: Answer[]): { p50: number; max: number } {
  const times = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  return { p50: percentile(times, 50), max: times.at(-1) ?? 0 };
}

const FINAL = [200, 404, 409];

/**
 * Retries, as a client does, every new number whose only answers were 202 (once lookups are
 * settled): a lookup that succeeded answers from the cache, one that failed is looked up again.
 */
async function retryPending(baseUrl: string, answers: Answer[], users: TestKey[]): Promise<Answer[]> {
  const final = new Set(answers.filter((answer) => FINAL.includes(answer.status as number)).map((answer) => answer.licenceNumber));
  const pending = answers.filter((answer) => answer.fresh && answer.status === 202 && !final.has(answer.licenceNumber));
  const started = Date.now();
  return Promise.all(
    pending.map((answer) =>
      verifyOnce(
        baseUrl,
        users.find((user) => user.userId === answer.userId)!,
        answer.licenceNumber,
        true,
        started,
      ),
    ),
  );
}

/** The figures every scenario reports about its answers. */
export function loadFigures(answers: Answer[]): { requests: number; byStatus: Record<string, number>; answerMs: { p50: number; max: number } } {
  return { requests: answers.length, byStatus: countByStatus(answers), answerMs: timing(answers) };
}

/**
 * What each user must have been charged: the warm numbers and every new number that got a final
 * result (200, 404, 409); never a new number answered only 5xx (or only 202: retry those first;
 * a retry may be 503 again when the breaker is open, and is then uncharged).
 */
function expectedCharges(answers: Answer[], warmNumbers: string[], users: TestKey[]): Map<string, string[]> {
  const expected = new Map<string, string[]>();
  for (const user of users) {
    const numbers = new Set(warmNumbers);
    for (const answer of answers) {
      if (answer.userId === user.userId && answer.fresh && FINAL.includes(answer.status as number)) numbers.add(answer.licenceNumber);
    }
    expected.set(user.userId, [...numbers].sort());
  }
  return expected;
}

/**
 * Once lookups are settled and pending numbers retried, checks every user's ledger against all
 * answers so far (`answers` gains the retries): the figures for the summary, and each mismatch
 * with the answers its number got.
 */
export async function settleLedger(
  rig: FaultRig<RigRedis>,
  answers: Answer[],
  users: TestKey[],
): Promise<{ expected: number; found: number; retried: number; mismatches: string[] }> {
  await rig.untilSettled(60_000);
  const retries = await retryPending(rig.baseUrl, answers, users);
  answers.push(...retries);
  await rig.untilSettled(60_000);
  const ledger = await compareLedgers(rig, expectedCharges(answers, WARM_NUMBERS, users), answers);
  return { ...ledger, retried: retries.length, mismatches: [...unexpectedAnswers(retries, { fresh: [200, 404, 503], warm: [] }), ...ledger.mismatches] };
}

async function compareLedgers(
  rig: FaultRig<RigRedis>,
  expected: Map<string, string[]>,
  answers: Answer[],
): Promise<{ expected: number; found: number; mismatches: string[] }> {
  const answered = (number: string) =>
    answers
      .filter((answer) => answer.licenceNumber === number)
      .map((answer) => `${answer.status}@${answer.sentAt}+${answer.ms}ms`)
      .join(' ');
  let expectedCount = 0;
  let foundCount = 0;
  const mismatches: string[] = [];
  for (const [userId, numbers] of expected) {
    const { charged, used } = await rig.ledger(userId);
    expectedCount += numbers.length;
    foundCount += charged.length;
    const missing = numbers.filter((number) => !charged.includes(number));
    const extra = charged.filter((number) => !numbers.includes(number));
    if (missing.length > 0 || extra.length > 0 || used !== charged.length) {
      const describe = (numbers: string[]) =>
        numbers
          .slice(0, 5)
          .map((number) => `${number} (${answered(number)})`)
          .join(', ') || '-';
      mismatches.push(
        `user ${userId}: ${missing.length} missing ${describe(missing)}; ${extra.length} extra ${describe(extra)}; used ${used} for ${charged.length} rows`,
      );
    }
  }
  return { expected: expectedCount, found: foundCount, mismatches };
}

/** Prints a scenario's figures and appends them to SUMMARY_FILE. */
export function report(scenario: string, figures: Record<string, unknown>): void {
  const line = JSON.stringify({ scenario, ...figures });
  appendFileSync(SUMMARY_FILE, `${line}\n`);
  console.log(line);
}
