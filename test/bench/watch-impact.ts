import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestCounts, RequestTimes } from '@lvs/register-sandbox';
import { ChildProcess, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { verify } from './batch-impact';
import { LoadResult, runLoad } from './load';

export interface WatchImpactOptions {
  baseUrl: string;
  sandboxUrl: string;
  /** the key whose watchlist gets the numbers to re-check */
  watchKey: string;
  /** the key of the partner verifying single numbers meanwhile */
  verifyKey: string;
  /** new numbers to watch, one list per turn: each turn's cycle starts with all of them due */
  watchNumbers: string[][];
  /** numbers for single verifications, none watched: split evenly over the runs, each used once */
  verifyNumbers: string[];
  /** single verifications in flight at once */
  concurrency?: number;
  /** processes whose CPU use to report per run, by name */
  pids?: Record<string, number>;
}

/** Share of one core each process used during a run, in per cent. */
export type CpuUse = Record<string, number>;

export interface WatchImpact {
  /** live verifications of new numbers with no re-check running (A), one per turn */
  withoutCycle: LoadResult[];
  /** the same while the turn's watched numbers are being re-checked (B), one per turn */
  duringCycle: LoadResult[];
  /** upstream requests for watched numbers per second while each B run lasted: the cycle did run */
  recheckLookupsPerSecond: number[];
  /** the most upstream requests (live and re-checks) in any one second of each B run: how close to the budget */
  peakRegisterPerSecond: number[];
  cpuWithoutCycle: CpuUse[];
  cpuDuringCycle: CpuUse[];
}

/** CPU seconds a process has used so far (user + system, from /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}
const CLOCK_TICKS_PER_SECOND = 100;

/** Runs `work` and measures how much CPU each process used meanwhile. */
async function withCpu<T>(pids: Record<string, number>, work: () => Promise<T>): Promise<[T, CpuUse]> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const started = now();
  const result = await work();
  const seconds = (now() - started) / 1000;
  const use = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, Math.round(((cpuSeconds(pid) - before[name]) / seconds) * 100)]));
  return [result, use];
}

const now = () => performance.timeOrigin + performance.now();

async function sandboxRequests(sandboxUrl: string): Promise<number> {
  return ((await (await fetch(`${sandboxUrl}/__sandbox/requests`)).json()) as RequestCounts).total;
}

/** Waits until the register has had no request for a second: the last claimed re-checks are done. */
async function registerQuiet(sandboxUrl: string): Promise<void> {
  let before = await sandboxRequests(sandboxUrl);
  for (;;) {
    await sleep(1000);
    const after = await sandboxRequests(sandboxUrl);
    if (after === before) return;
    before = after;
  }
}

/** The most arrivals within any one second (a sliding window). */
function busiestSecond(arrivals: number[]): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < sorted.length; last++) {
    while (sorted[last] - sorted[first] >= 1000) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

async function callEach(numbers: string[], concurrency: number, call: (licenceNumber: string) => Promise<Response>): Promise<void> {
  const result = await runLoad(numbers.length, concurrency, async (index) => String((await call(numbers[index])).status));
  if (Object.keys(result.outcomes).some((status) => !/^2\d\d$/.test(status)))
    throw new Error(`watchlist calls answered ${JSON.stringify(result.outcomes)}`);
}

/**
 * "While a cycle runs, live verify latency stays within 10 % of its value without the cycle":
 * live verifications of new numbers, alone (A) and while a turn's watched numbers are re-checked
 * at the lowest priority through the same queue and register rate limit (B), A B A B in one
 * session. Start the API and worker with a cycle long enough for the re-checks to keep running
 * at their register share during each B run.
 */
export async function measureWatchImpact(options: WatchImpactOptions): Promise<WatchImpact> {
  const { baseUrl, sandboxUrl, watchKey, verifyKey, watchNumbers, verifyNumbers } = options;
  const concurrency = options.concurrency ?? 4;
  const perRun = Math.floor(verifyNumbers.length / (2 * watchNumbers.length));
  let used = 0;
  const live = () => {
    const numbers = verifyNumbers.slice(used, (used += perRun));
    return runLoad(numbers.length, concurrency, (index) => verify(baseUrl, verifyKey, numbers[index]));
  };
  const watchlist = (method: string, path: string, body?: object) =>
    fetch(`${baseUrl}/v1/watchlist${path}`, {
      method,
      headers: { 'x-api-key': watchKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  const pids = options.pids ?? {};
  const impact: WatchImpact = {
    withoutCycle: [],
    duringCycle: [],
    recheckLookupsPerSecond: [],
    peakRegisterPerSecond: [],
    cpuWithoutCycle: [],
    cpuDuringCycle: [],
  };
  for (const numbers of watchNumbers) {
    const [alone, cpuAlone] = await withCpu(pids, live);
    impact.withoutCycle.push(alone);
    impact.cpuWithoutCycle.push(cpuAlone);

    for (let at = 0; at < numbers.length; at += 1000) {
      const items = numbers.slice(at, at + 1000).map((licenceNumber) => ({ licenceNumber }));
      const added = await watchlist('POST', ':batchAdd', { items });
      if (added.status !== 200) throw new Error(`POST /v1/watchlist:batchAdd answered ${added.status}: ${await added.text()}`);
    }
    await sleep(1500); // the numbers are due at once: the first ticks claim and queue their re-checks
    const started = now();
    const [during, cpuDuring] = await withCpu(pids, live);
    impact.duringCycle.push(during);
    impact.cpuDuringCycle.push(cpuDuring);
    const ended = now();
    const { byLicence } = (await (await fetch(`${sandboxUrl}/__sandbox/requests/times`)).json()) as RequestTimes;
    const rechecked = numbers.flatMap((number) => (byLicence[number] ?? []).filter((at) => at >= started && at <= ended)).length;
    impact.recheckLookupsPerSecond.push(rechecked / ((ended - started) / 1000));
    impact.peakRegisterPerSecond.push(
      busiestSecond(
        Object.values(byLicence)
          .flat()
          .filter((at) => at >= started && at <= ended),
      ),
    );

    // Stop the cycle before the next A run: unwatch everything, let the claimed re-checks finish.
    await callEach(numbers, 8, (licenceNumber) => watchlist('DELETE', `/${licenceNumber}`));
    await registerQuiet(sandboxUrl);
  }
  return impact;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The row's settings: a real register budget, not the test's 1,000/s. */
const ROW = {
  sandboxLatencyMs: 200,
  registerPerSecond: 50,
  registerShare: 0.5,
  workerConcurrency: 16,
  /** long enough that the turn's numbers are still being re-checked at the full share during B */
  cycleSeconds: 60,
  watchedPerTurn: 3000,
  verifiesPerRun: 100,
  turns: 2,
};

export type StartProcess = (
  workDir: string,
  entry: string,
  env: Record<string, string>,
  readyText: RegExp,
  nodeFlags?: readonly string[],
) => Promise<{ child: ChildProcess; url: string }>;

/**
 * The bench row: its own sandbox, database, Redis prefix, API and worker with a real register
 * budget (the other rows' 200/s and 64 lookup slots would hide the contention), A B A B.
 */
export async function watchImpactRow(options: {
  workDir: string;
  env: Record<string, string>;
  nodeFlags: { api: readonly string[]; worker: readonly string[] };
  postgresUrl: string;
  startProcess: StartProcess;
}): Promise<Record<string, unknown>> {
  const children: ChildProcess[] = [];
  // In its own process, like the API and the worker: in this one it would slow the measuring client.
  const sandbox = await options.startProcess(
    options.workDir,
    'dist/libs/register-sandbox/src/main.js',
    { SANDBOX_PORT: '0' },
    /Register sandbox listening on (\S+)/,
  );
  children.push(sandbox.child);
  const database = `${new URL(options.env.DATABASE_URL).pathname.slice(1)}_watch`;
  const env = {
    ...options.env,
    DATABASE_URL: options.env.DATABASE_URL.replace(/\/[^/]*$/, `/${database}`),
    REDIS_PREFIX: `${options.env.REDIS_PREFIX}_watch`,
    REGISTER_URL: sandbox.url,
    REGISTER_MAX_PER_SECOND: String(ROW.registerPerSecond),
    WATCH_MAX_REGISTER_SHARE: String(ROW.registerShare),
    WATCH_RECHECK_SECONDS: String(ROW.cycleSeconds),
    WORKER_CONCURRENCY: String(ROW.workerConcurrency),
  };
  try {
    await fetch(`${sandbox.url}/__sandbox/fault`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fault: 'none', latencyMs: ROW.sandboxLatencyMs }),
    });
    const api = await options.startProcess(options.workDir, 'dist/src/main.js', env, /API listening on ([\d.]+:\d+)/, options.nodeFlags.api);
    children.push(api.child);
    const worker = await options.startProcess(options.workDir, 'dist/src/worker.js', env, /Worker running()/, options.nodeFlags.worker);
    children.push(worker.child);
    // The operator's command, run from the build like the bench's other processes.
    const key = (name: string) => {
      const created = spawnSync(process.execPath, [join(process.cwd(), 'dist/src/cli/admin.cli.js'), 'create', '--name', name], {
        env: { PATH: process.env.PATH ?? '', ...env },
        encoding: 'utf8',
      });
      if (created.status !== 0) throw new Error(`admin create failed: ${created.stderr}`);
      return (JSON.parse(created.stdout) as { key: string }).key;
    };
    const number = (series: number, index: number) => `2${series}${String(index).padStart(14, '0')}`;
    const impact = await measureWatchImpact({
      baseUrl: `http://${api.url}`,
      sandboxUrl: sandbox.url,
      watchKey: key('bench watcher'),
      verifyKey: key('bench live verifier'),
      watchNumbers: Array.from({ length: ROW.turns }, (_, turn) => Array.from({ length: ROW.watchedPerTurn }, (_, index) => number(turn, index))),
      verifyNumbers: Array.from({ length: 2 * ROW.turns * ROW.verifiesPerRun }, (_, index) => number(9, index)),
      pids: { api: api.child.pid!, worker: worker.child.pid!, sandbox: sandbox.child.pid! },
    });
    const p50 = mean(impact.duringCycle.map((run) => run.p50));
    const p99 = mean(impact.duringCycle.map((run) => run.p99));
    const baselineP50 = mean(impact.withoutCycle.map((run) => run.p50));
    const baselineP99 = mean(impact.withoutCycle.map((run) => run.p99));
    const row = {
      scenario:
        `live verifications of new numbers during a re-check cycle of ${ROW.watchedPerTurn} watched numbers (register latency ` +
        `${ROW.sandboxLatencyMs} ms, REGISTER_MAX_PER_SECOND ${ROW.registerPerSecond}, WATCH_MAX_REGISTER_SHARE ${ROW.registerShare})`,
      perSecond: Math.round(mean(impact.duringCycle.map((run) => run.perSecond))),
      p50: Number(p50.toFixed(1)),
      p99: Number(p99.toFixed(1)),
      baseline: 'the same verifications with no cycle running (A B A B, means of the two runs)',
      baselinePerSecond: Math.round(mean(impact.withoutCycle.map((run) => run.perSecond))),
      baselineP50: Number(baselineP50.toFixed(1)),
      baselineP99: Number(baselineP99.toFixed(1)),
      ratio: Number((p50 / baselineP50).toFixed(2)),
      p99Ratio: Number((p99 / baselineP99).toFixed(2)),
      target: 'p50 and p99 within 10 % of the baseline (ratio <= 1.1)',
      outcomes: [...impact.withoutCycle, ...impact.duringCycle].map((run) => run.outcomes),
      recheckLookupsPerSecond: impact.recheckLookupsPerSecond.map((perSecond) => Number(perSecond.toFixed(1))),
      peakRegisterPerSecond: impact.peakRegisterPerSecond,
      cpuPercentWithoutCycle: impact.cpuWithoutCycle,
      cpuPercentDuringCycle: impact.cpuDuringCycle,
    };
    console.log(`watch impact: ${JSON.stringify(row)}`);
    return row;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)))));
    const admin = new Client({ connectionString: options.postgresUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
}
