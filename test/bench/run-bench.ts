import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox } from '@lvs/register-sandbox';
import Redis from 'ioredis';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { closeSync, createReadStream, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/auth/api-key-secret';
import { readNodeFlags } from '../../src/config/node-flags';
import { PrivateRedisCluster } from '../support/private-redis-cluster';
import { deleteKeysWithPrefix } from '../support/redis-keys';
import { measureBatchImpact } from './batch-impact';
import { BENCH_LICENCE } from './bench-fixtures';
import type { LoadFigures, LoadPlan } from './load-plan';
import { watchImpactRow } from './watch-impact';
import { WRK_THREADS, wrkInstalled } from './wrk-load';

/**
 * `npm run bench`: the hot paths over real HTTP against real processes (API, worker, PostgreSQL,
 * Redis, the sandbox register), each beside a bare Fastify route measured in the same session
 * with the same load (taking turns A B B A A B, medians reported). The load generator runs in its own
 * process. Results go to bench/results/latest.json.
 */
const ROOT = process.cwd();
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** `false` measures what unnamed statements cost (DATABASE_PREPARED_STATEMENTS=false, for PgBouncer before 1.21). */
const PREPARED_STATEMENTS = process.env.BENCH_PREPARED_STATEMENTS ?? 'true';
/** Length of one measured run; 20 s by default, shorter for a smoke run. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? '20');
const CONNECTIONS = 64;
const USERS = 10;
const REPEAT_NUMBERS = 1000;
/**
 * Each compared row runs this many times on each side, taking turns; the median of each is reported. Three by default,
 * so that one run slowed by the machine (or one unusually fast baseline) does not decide a row; more (BENCH_TURNS)
 * on a machine whose speed drifts within a minute.
 */
const TURNS = Number(process.env.BENCH_TURNS ?? '3');
const ORDER = Array.from({ length: TURNS }, (_, turn) => (turn % 2 === 0 ? 'A B' : 'B A')).join(' ');
/**
 * Enough users that each first-verification run has a pair never used before for every request it can make (up
 * to 10,000 a second for 20 s): 200 users for two runs ran out at 9,000 a second, and the rest of that run were
 * repeats.
 */
const FIRST_CHARGE_USERS = 600;
const COLD_NUMBERS = 2000;
const SANDBOX_LATENCY_MS = 200;
const REGISTER_MAX_PER_SECOND = 200;
const WORKER_CONCURRENCY = 64;
const SINGLE_FLIGHT_REQUESTS = 500;
const BATCH_IMPACT_VERIFIES = 40;
/**
 * Rows to run, comma separated: `hot-path` (every row but the next three), `comparisons` (the cached repeat against
 * the same API with the console off and with tracing on; with BENCH_BASELINE_CHECKOUT, it and the other paths against
 * that checkout's), `watch-impact`, `cluster` (the cached repeat and first verification again, on a private 3-primary
 * Redis Cluster); all by default.
 */
const BENCH_ROWS = new Set((process.env.BENCH_ROWS ?? 'hot-path,comparisons,watch-impact,cluster').split(','));
/**
 * Another built checkout of the service (a worktree of an earlier commit, or one with a change taken out) whose API
 * the cached repeat, verify-holder, first verifications and the quota endpoint are compared with, turn by turn, in the
 * same run. It shares this run's database and Redis prefix, so it must have the same schema. BENCH_BASELINE_LABEL names
 * it in the rows.
 */
const BASELINE_CHECKOUT = process.env.BENCH_BASELINE_CHECKOUT;
const BASELINE_LABEL = process.env.BENCH_BASELINE_LABEL ?? BASELINE_CHECKOUT;
/** As the start scripts run each process (npm run start:api, start:worker): see src/config/node-flags.ts. */
const NODE_FLAGS = { api: readNodeFlags(join(ROOT, 'package.json'), 'api'), worker: readNodeFlags(join(ROOT, 'package.json'), 'worker') };

const LOAD_GENERATOR = wrkInstalled() ? `wrk, ${WRK_THREADS} threads (timed runs); autocannon (runs of a fixed number of requests)` : 'autocannon';

const run = promisify(execFile);
const number = (prefix: string, index: number) => `${prefix}${String(index).padStart(16 - prefix.length, '0')}`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

let processesStarted = 0;

/**
 * Starts a process with its output going to a file, as a log collector would take it: a pipe into this
 * process would make the bench read a line per request on the cores it measures.
 */
async function startProcess(
  workDir: string,
  entry: string,
  env: Record<string, string>,
  readyText: RegExp,
  nodeFlags: readonly string[] = [],
): Promise<{ child: ChildProcess; url: string; logFile: string }> {
  // One file per start: a second process of the same entry (the watch-impact row's API) must not find the
  // first one's ready line.
  const logFile = join(workDir, `${entry.replace(/\W+/g, '-')}-${++processesStarted}.log`);
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeFlags, isAbsolute(entry) ? entry : join(ROOT, entry)], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  for (let waited = 0; waited < 30_000; waited += 100) {
    const match = readyText.exec(readFileSync(logFile, 'utf8'));
    if (match) return { child, url: (match[1] ?? '').replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1'), logFile };
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  throw new Error(`${entry} did not start:\n${readFileSync(logFile, 'utf8')}`);
}

/**
 * The error-level lines (pino levels 50 and 60) a process logged, the first 20. Read line by line: the API logs a
 * line per request, over 500 MB in a full run, more than one string can hold.
 */
async function errorLines(logFile: string): Promise<string[]> {
  const found: string[] = [];
  for await (const line of createInterface({ input: createReadStream(logFile), crlfDelay: Infinity })) {
    if (/"level":(50|60)\b/.test(line)) found.push(line.slice(0, 2000));
    if (found.length === 20) break;
  }
  return found;
}

/** Peak resident memory of a process so far (the kernel's high-water mark), in MiB. */
function peakResidentMiB(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/**
 * CPU time (user and system) a process has used, in ms, from /proc/PID/stat's clock ticks (10 ms on Linux). Per
 * request served, it compares two processes on a busy machine better than throughput does: a neighbour that takes
 * the cores slows both sides' answers, but not the work each answer costs.
 */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `work`'s load figures, adding the CPU time `pid` spent during it and the requests it served to `tally`. */
async function countingCpu(pid: number, tally: { cpuMs: number; requests: number }, work: () => Promise<LoadFigures>): Promise<LoadFigures> {
  const before = cpuMs(pid);
  const figures = await work();
  tally.cpuMs += cpuMs(pid) - before;
  tally.requests += figures.requests;
  return figures;
}

let planCounter = 0;
async function load(workDir: string, plan: LoadPlan): Promise<LoadFigures> {
  const file = join(workDir, `plan-${planCounter++}.json`);
  writeFileSync(file, JSON.stringify(plan));
  const { stdout } = await run(process.execPath, [join(ROOT, 'dist/test/bench/load-generator.js'), file], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as LoadFigures;
}

interface ComparedRow {
  scenario: string;
  baseline: string;
  perSecond: number;
  p50: number;
  p99: number;
  baselinePerSecond: number;
  baselineP99: number;
  ratio: number;
  runs: LoadFigures[];
  baselineRuns: LoadFigures[];
}

/**
 * A B B A A B: the path and the bare route take turns, so that both see the same machine, and each goes first in half
 * the turns, so that neither always runs in the wake of the other (the worker still draining its evidence records).
 */
async function compare(
  scenario: string,
  baseline: string,
  measured: (turn: number) => Promise<LoadFigures>,
  bare: (turn: number) => Promise<LoadFigures>,
): Promise<ComparedRow> {
  const runs: LoadFigures[] = [];
  const baselineRuns: LoadFigures[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    if (turn % 2 === 0) runs.push(await measured(turn));
    baselineRuns.push(await bare(turn));
    if (turn % 2 === 1) runs.push(await measured(turn));
  }
  const perSecond = median(runs.map((figures) => figures.perSecond));
  const baselinePerSecond = median(baselineRuns.map((figures) => figures.perSecond));
  const row = {
    scenario,
    baseline,
    perSecond,
    p50: median(runs.map((figures) => figures.p50)),
    p99: median(runs.map((figures) => figures.p99)),
    baselinePerSecond,
    baselineP99: median(baselineRuns.map((figures) => figures.p99)),
    ratio: perSecond / baselinePerSecond,
    runs,
    baselineRuns,
  };
  console.log(
    `${scenario}: ${perSecond.toFixed(0)} req/s, p99 ${row.p99.toFixed(1)} ms; ${baseline}: ${baselinePerSecond.toFixed(0)} req/s ` +
      `-> ${row.ratio.toFixed(2)}x ${JSON.stringify(runs.map((figures) => figures.outcomes))} ` +
      `against ${JSON.stringify(baselineRuns.map((figures) => figures.outcomes))}`,
  );
  return row;
}

/** SIGTERM to each, then waits until all have exited. */
async function stopProcesses(children: ChildProcess[]): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)))));
}

async function createUsers(db: Client, count: number, name: string): Promise<string[]> {
  const keys: string[] = [];
  for (let index = 0; index < count; index++) {
    const key = generateApiKey();
    const { rows } = await db.query<{ id: string }>('INSERT INTO users (name, monthly_quota) VALUES ($1, NULL) RETURNING id', [`${name} ${index}`]);
    await db.query('INSERT INTO api_keys (user_id, name, key_hash, key_prefix) VALUES ($1, $2, $3, $4)', [
      rows[0].id,
      name,
      hashApiKey(key),
      displayPrefix(key),
    ]);
    keys.push(key);
  }
  return keys;
}

async function setSandboxLatency(sandboxUrl: string, latencyMs: number): Promise<void> {
  await fetch(`${sandboxUrl}/__sandbox/fault`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fault: 'none', latencyMs }),
  });
}

/** A row's value as a table cell: rows hold strings, numbers and null. */
const cell = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

function markdownTable(result: { date: string; machine: Record<string, unknown>; rows: Record<string, unknown>[] }): string {
  const lines = ['| scenario | req/s | p50 ms | p99 ms | baseline | baseline req/s | ratio | target |', '|---|---|---|---|---|---|---|---|'];
  for (const row of result.rows) {
    lines.push(
      `| ${cell(row.scenario)} | ${cell(row.perSecond)} | ${cell(row.p50 ?? '')} | ${cell(row.p99 ?? '')} | ${cell(row.baseline)} | ${cell(row.baselinePerSecond ?? '')} | ` +
        `${row.ratio === undefined ? '' : `${cell(row.ratio)}x`} | ${cell(row.target)} |`,
    );
  }
  return lines.join('\n');
}

/** An OTLP/HTTP collector that takes every export and keeps nothing. */
async function startTraceSink(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface FloorCheck {
  passed: boolean;
  reason: string;
}

/** The cached repeat's least share of the card's floor, and its p99's most multiple of the floor's (issue 45's goals). */
const FLOOR_MIN_RATIO = 0.8;
const FLOOR_MAX_P99_MULTIPLE = 2;

/**
 * The cached repeat beside the card's floor (nest-floor.ts, with the production API's Node flags), turn by turn; the
 * check fails the bench when the cached repeat falls below its share of the floor or its tail grows past the floor's
 * multiple, so that a regression shows in the commit that makes it.
 */
async function floorRow(
  workDir: string,
  apiUrl: string,
  userKeys: string[],
  cachedRepeat: (url: string) => Promise<LoadFigures>,
  summarise: (row: ComparedRow, target: string) => void,
): Promise<FloorCheck> {
  const floor = await startProcess(
    workDir,
    'dist/test/bench/nest-floor.js',
    { BENCH_FLOOR_KEYS: userKeys.join(',') },
    /Nest floor listening on (\S+)/,
    NODE_FLAGS.api,
  );
  try {
    await cachedRepeat(floor.url);
    const row = await compare(
      'floor: cached repeat verification',
      'nest floor (NestJS, DTO, ValidationPipe, key guard, no I/O)',
      () => cachedRepeat(apiUrl),
      () => cachedRepeat(floor.url),
    );
    summarise(row, `>= ${FLOOR_MIN_RATIO}x, p99 <= ${FLOOR_MAX_P99_MULTIPLE}x the floor's`);
    const p99Multiple = row.p99 / row.baselineP99;
    const passed = row.ratio >= FLOOR_MIN_RATIO && p99Multiple <= FLOOR_MAX_P99_MULTIPLE;
    return { passed, reason: `${row.ratio.toFixed(2)}x the floor's throughput, p99 ${p99Multiple.toFixed(2)}x the floor's` };
  } finally {
    await stopProcesses([floor.child]);
  }
}

function writeResults(rows: Record<string, unknown>[], extra: Record<string, unknown>): void {
  const result = {
    date: new Date().toISOString(),
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    settings: {
      connections: CONNECTIONS,
      secondsPerRun: SECONDS,
      order: `${ORDER}, medians`,
      loadGenerator: LOAD_GENERATOR,
      preparedStatements: PREPARED_STATEMENTS,
    },
    rows,
    ...extra,
  };
  // A run of some rows only goes to a file of its own: latest.json keeps the last full run.
  const file = process.env.BENCH_ROWS ? `bench/results/partial-${[...BENCH_ROWS].join('+')}.json` : 'bench/results/latest.json';
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(ROOT, file), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\n${result.machine.cpu}, ${result.machine.cores} cores, Node ${result.machine.node}, ${result.date}\n`);
  console.log(markdownTable(result));
  console.log(`\nWritten to ${file}`);
}

async function main(): Promise<void> {
  const runId = `lvs_bench_${Date.now().toString(36)}`;
  const workDir = mkdtempSync(join(tmpdir(), 'lvs-bench-'));
  const repeatNumbers = Array.from({ length: REPEAT_NUMBERS }, (_, index) => number('15', index));
  const dataFile = join(workDir, 'licences.json');
  writeFileSync(
    dataFile,
    JSON.stringify({
      licences: repeatNumbers.map((licenceNumber) => ({ ...BENCH_LICENCE, licenceNumber })),
      tooManyResults: [],
      faults: {},
    }),
  );
  const sandbox = await startSandbox({ port: 0, dataFile });
  const databaseUrl = POSTGRES_URL.replace(/\/[^/]*$/, `/${runId}`);
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATABASE_PREPARED_STATEMENTS: PREPARED_STATEMENTS,
    REDIS_URL,
    REDIS_PREFIX: runId,
    REGISTER_URL: sandbox.url,
    REGISTER_MAX_PER_SECOND: String(REGISTER_MAX_PER_SECOND),
    WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
    LOG_LEVEL: 'log',
    LOG_FORMAT: 'json',
    WORKER_HTTP_PORT: '0',
    // The bench measures throughput: every request still takes its token, from a bucket it never empties, and every
    // key new to an API still counts an attempt against its address, under a limit that 600 new keys at once, all
    // from 127.0.0.1, never reach (a baseline checkout from before 460c318 would block that address for both sides).
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    AUTH_FAILURES_PER_MINUTE: '1000000',
  };
  const children: ChildProcess[] = [];
  const admin = new Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    if (!['hot-path', 'comparisons', 'cluster'].some((rows) => BENCH_ROWS.has(rows))) {
      const rows = BENCH_ROWS.has('watch-impact')
        ? [await watchImpactRow({ workDir, env, nodeFlags: NODE_FLAGS, postgresUrl: POSTGRES_URL, startProcess })]
        : [];
      writeResults(rows, {});
      return;
    }
    const bare = await startProcess(workDir, 'dist/test/bench/bare-server.js', {}, /Bare server listening on (\S+)/);
    children.push(bare.child);
    const api = await startProcess(workDir, 'dist/src/main.js', env, /API listening on ([\d.]+:\d+)/, NODE_FLAGS.api);
    children.push(api.child);
    const apiUrl = `http://${api.url}`;
    const worker = await startProcess(workDir, 'dist/src/worker.js', env, /Worker running()/, NODE_FLAGS.worker);
    children.push(worker.child);

    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    const userKeys = await createUsers(db, USERS, 'bench');
    const firstChargeKeys = await createUsers(db, FIRST_CHARGE_USERS, 'bench first charge');
    const [singleUserKey] = await createUsers(db, 1, 'bench one user');
    // The baseline checkout's first verifications need pairs that neither API has charged.
    const baselineFirstChargeKeys = BASELINE_CHECKOUT ? await createUsers(db, FIRST_CHARGE_USERS, 'bench first charge, baseline checkout') : [];
    await db.end();

    const verifyPlan = (numbers: string[], apiKeys: string[], extra: Partial<LoadPlan>): LoadPlan => ({
      url: apiUrl,
      method: 'POST',
      path: '/v1/licences/verify',
      connections: CONNECTIONS,
      apiKeys,
      numbers,
      firstIndex: 0,
      ...extra,
    });
    // verify-holder with a date of birth, where the number and the date's name search are both cached. The bench's
    // register holds 1,000 copies of one person, so a search with her right date would list them all; another date
    // keeps the cached search as small as a real one (NOT_CONFIRMED).
    const holderPlan = (extra: Partial<LoadPlan>) =>
      verifyPlan(repeatNumbers, userKeys, {
        path: '/v1/licences/verify-holder',
        bodyFields: { firstName: BENCH_LICENCE.firstName, surname: BENCH_LICENCE.surname, dateOfBirth: '1990-01-01' },
        ...extra,
      });
    const quotaPlan = (extra: Partial<LoadPlan>) => verifyPlan([], userKeys, { method: 'GET', path: '/v1/quota/usage', ...extra });
    const bareVerify = () => load(workDir, { ...verifyPlan(repeatNumbers, userKeys, { durationSeconds: SECONDS }), url: bare.url });
    const bareQuota = () => load(workDir, quotaPlan({ durationSeconds: SECONDS, url: bare.url }));

    // The kernel's high-water marks after each stage, so that a peak can be traced to the row that set it.
    const highWaterMarks: { after: string; apiMiB: number; workerMiB: number }[] = [];
    const markHighWater = (after: string) =>
      highWaterMarks.push({ after, apiMiB: Math.round(peakResidentMiB(api.child.pid!)), workerMiB: Math.round(peakResidentMiB(worker.child.pid!)) });

    // Warm-up: every user verifies every number twice, so that all are cached, charged and marked.
    const pairs = USERS * REPEAT_NUMBERS;
    for (let pass = 0; pass < 2; pass++) await load(workDir, verifyPlan(repeatNumbers, userKeys, { amount: pairs }));
    await bareVerify();
    markHighWater('start and warm-up');

    const rows: Record<string, unknown>[] = [];
    const summarise = (row: ComparedRow, target: string) =>
      rows.push({
        scenario: row.scenario,
        perSecond: Math.round(row.perSecond),
        p50: Number(row.p50.toFixed(1)),
        p99: Number(row.p99.toFixed(1)),
        baseline: row.baseline,
        baselinePerSecond: Math.round(row.baselinePerSecond),
        baselineP99: Number(row.baselineP99.toFixed(1)),
        ratio: Number(row.ratio.toFixed(2)),
        target,
        outcomes: row.runs.map((figures) => figures.outcomes),
        baselineOutcomes: row.baselineRuns.map((figures) => figures.outcomes),
      });

    // `topology` names where the API's Redis is when it is not the single server: the cluster rows run these again.
    const cachedRepeatRow = async (url: string, topology = '') =>
      summarise(
        await compare(
          `cached repeat verification (${USERS} users x ${REPEAT_NUMBERS} numbers, charged)${topology}`,
          'bare Fastify POST',
          () => load(workDir, { ...verifyPlan(repeatNumbers, userKeys, { durationSeconds: SECONDS }), url }),
          bareVerify,
        ),
        '>= 0.30x, p99 <= 20 ms, no errors',
      );
    // Each request is a user's first verification of a cached number: each run has its own share of the pairs. Consecutive
    // requests come from different users, as from many partners at once (the single-user figure follows it).
    const firstChargePairs = FIRST_CHARGE_USERS * REPEAT_NUMBERS;
    const firstVerificationRow = async (url: string, keys: string[], topology = '') => {
      const row = await compare(
        `first verification of a cached number (a new charge, ${FIRST_CHARGE_USERS} users interleaved)${topology}`,
        'bare Fastify POST',
        (turn) =>
          load(workDir, {
            ...verifyPlan(repeatNumbers, keys, {
              durationSeconds: SECONDS,
              firstIndex: (turn * firstChargePairs) / TURNS,
              freshPairs: firstChargePairs / TURNS,
              interleaveUsers: true,
            }),
            url,
          }),
        bareVerify,
      );
      summarise(row, '>= 0.18x');
      // Should the service outrun the pairs prepared, the surplus were repeats: say so beside the row.
      rows[rows.length - 1].reusedPairs = row.runs.reduce((sum, figures) => sum + figures.reusedPairs, 0);
    };
    // The cached repeats against a second API of this checkout with the console off (same Redis and database), and,
    // when given, against the baseline checkout's API: turn by turn, so that both sides see the same machine.
    // Both sides are APIs started for the row and warmed alike, so that neither carries the other rows' history. The
    // other API runs with its own checkout's Node flags, so that a change of flags can be compared too; both APIs' CPU
    // time a request and peak resident memory go beside the row.
    const cachedRepeatAgainst = async (
      scenario: string,
      entry: string,
      otherEnv: Record<string, string>,
      other: string,
      {
        otherFlags = NODE_FLAGS.api,
        target = '>= 0.95x',
        alsoCompare,
      }: { otherFlags?: string[]; target?: string; alsoCompare?: (thisUrl: string, otherUrl: string) => Promise<void> } = {},
    ) => {
      const thisApi = await startProcess(workDir, 'dist/src/main.js', env, /API listening on ([\d.]+:\d+)/, NODE_FLAGS.api);
      const otherApi = await startProcess(workDir, entry, { ...env, ...otherEnv }, /API listening on ([\d.]+:\d+)/, otherFlags);
      try {
        const [thisUrl, otherUrl] = [`http://${thisApi.url}`, `http://${otherApi.url}`];
        for (const url of [thisUrl, otherUrl]) await load(workDir, { ...verifyPlan(repeatNumbers, userKeys, { amount: pairs }), url });
        const thisCpu = { cpuMs: 0, requests: 0 };
        const otherCpu = { cpuMs: 0, requests: 0 };
        const repeatsOn = (pid: number, cpu: typeof thisCpu, url: string) => () =>
          countingCpu(pid, cpu, () => load(workDir, { ...verifyPlan(repeatNumbers, userKeys, { durationSeconds: SECONDS }), url }));
        summarise(
          await compare(scenario, other, repeatsOn(thisApi.child.pid!, thisCpu, thisUrl), repeatsOn(otherApi.child.pid!, otherCpu, otherUrl)),
          target,
        );
        const cpuMicrosPerRequest = Math.round((1000 * thisCpu.cpuMs) / thisCpu.requests);
        const baselineCpuMicrosPerRequest = Math.round((1000 * otherCpu.cpuMs) / otherCpu.requests);
        console.log(`API CPU per request: this ${cpuMicrosPerRequest} µs, the other ${baselineCpuMicrosPerRequest} µs`);
        const peakMiB = Math.round(peakResidentMiB(thisApi.child.pid!));
        const baselinePeakMiB = Math.round(peakResidentMiB(otherApi.child.pid!));
        Object.assign(rows[rows.length - 1], {
          cpuMicrosPerRequest,
          baselineCpuMicrosPerRequest,
          peakMiB,
          baselinePeakMiB,
          nodeFlags: NODE_FLAGS.api.join(' '),
          baselineNodeFlags: otherFlags.join(' '),
        });
        console.log(`peak resident memory: this API ${peakMiB} MiB, the other ${baselinePeakMiB} MiB`);
        await alsoCompare?.(thisUrl, otherUrl);
      } finally {
        await stopProcesses([thisApi.child, otherApi.child]);
      }
    };
    // The other paths against the baseline checkout's API, turn by turn: verify-holder, first verifications and the
    // quota endpoint, so that a change that slows one of them shows in the run that measures it (no slower: >= 0.95x).
    const baselineCheckoutRows = async (thisUrl: string, otherUrl: string) => {
      // `run` loads one side for one turn; its slot (this side's turns the even ones, the other's the odd) lets a row
      // give each turn of each side pairs of its own.
      const againstOther = async (scenario: string, run: (url: string, slot: number) => Promise<LoadFigures>) => {
        const row = await compare(
          `${scenario}, this checkout`,
          `the same, ${BASELINE_LABEL}`,
          (turn) => run(thisUrl, 2 * turn),
          (turn) => run(otherUrl, 2 * turn + 1),
        );
        summarise(row, '>= 0.95x');
        return row;
      };
      for (const url of [thisUrl, otherUrl]) await load(workDir, holderPlan({ amount: pairs, url }));
      await againstOther('cached verify-holder with a date of birth', (url) => load(workDir, holderPlan({ durationSeconds: SECONDS, url })));
      // Each first verification is a new charge: every slot takes a share of pairs that no run has charged.
      const share = (FIRST_CHARGE_USERS * REPEAT_NUMBERS) / (2 * TURNS);
      const firstRow = await againstOther(`first verification of a cached number (a new charge, ${FIRST_CHARGE_USERS} users interleaved)`, (url, slot) =>
        load(workDir, {
          ...verifyPlan(repeatNumbers, baselineFirstChargeKeys, {
            durationSeconds: SECONDS,
            firstIndex: slot * share,
            freshPairs: share,
            interleaveUsers: true,
          }),
          url,
        }),
      );
      rows[rows.length - 1].reusedPairs = [...firstRow.runs, ...firstRow.baselineRuns].reduce((sum, figures) => sum + figures.reusedPairs, 0);
      await againstOther('GET /v1/quota/usage', (url) => load(workDir, quotaPlan({ durationSeconds: SECONDS, url })));
    };
    if (BENCH_ROWS.has('comparisons')) {
      await cachedRepeatAgainst(
        'cached repeat verification, console enabled',
        'dist/src/main.js',
        { CONSOLE_ENABLED: 'false' },
        'the same, console disabled',
      );
      if (BASELINE_CHECKOUT) {
        await cachedRepeatAgainst(
          'cached repeat verification, this checkout',
          join(BASELINE_CHECKOUT, 'dist/src/main.js'),
          {},
          `the same, ${BASELINE_LABEL}`,
          { otherFlags: readNodeFlags(join(BASELINE_CHECKOUT, 'package.json'), 'api'), alsoCompare: baselineCheckoutRows },
        );
      }
      // Tracing on costs at most 15 % of the cached repeat: this API (off) at most 1/0.85 of the other (on). The spans
      // go to a collector that takes them and answers at once, so that the row times making and sending them.
      const collector = await startTraceSink();
      try {
        // Every request traced, then one in ten (TRACE_SAMPLE_RATIO): what sampling saves of tracing's cost.
        for (const [ratio, traced] of [
          ['1', 'every request traced'],
          ['0.1', '1 request in 10 traced'],
        ]) {
          await cachedRepeatAgainst(
            'cached repeat verification, tracing off',
            'dist/src/main.js',
            { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, TRACE_SAMPLE_RATIO: ratio },
            `the same, tracing on, ${traced}`,
            { target: '<= 1.18x' },
          );
        }
      } finally {
        await collector.close();
      }
      markHighWater('comparisons');
    }

    // Written with the results when the hot-path rows ran.
    let singleFlight: Record<string, unknown> | undefined;
    let floorCheck: FloorCheck | undefined;
    if (BENCH_ROWS.has('hot-path')) {
      await cachedRepeatRow(apiUrl);
      markHighWater('cached repeat');
      floorCheck = await floorRow(
        workDir,
        apiUrl,
        userKeys,
        (url) => load(workDir, { ...verifyPlan(repeatNumbers, userKeys, { durationSeconds: SECONDS }), url }),
        summarise,
      );

      // verify-holder beside verify, in the same run.
      await load(workDir, holderPlan({ amount: pairs }));
      summarise(
        await compare(
          `cached verify-holder with a date of birth (${USERS} users x ${REPEAT_NUMBERS} numbers, charged)`,
          'cached repeat verification',
          () => load(workDir, holderPlan({ durationSeconds: SECONDS })),
          () => load(workDir, verifyPlan(repeatNumbers, userKeys, { durationSeconds: SECONDS })),
        ),
        'reported beside verify; no errors',
      );
      markHighWater('cached verify-holder');
      await firstVerificationRow(apiUrl, firstChargeKeys);
      const manyUsers = rows[rows.length - 1] as { perSecond: number; p99: number };
      markHighWater('first verifications');
      // One user's new charges share its counter row: beside the same charges spread over many users, in the same run.
      const oneUser = await load(workDir, verifyPlan(repeatNumbers, [singleUserKey], { amount: REPEAT_NUMBERS }));
      rows.push({
        scenario: `first verifications by one user (${REPEAT_NUMBERS} cached numbers, ${CONNECTIONS} at a time)`,
        perSecond: Math.round(oneUser.perSecond),
        p50: Number(oneUser.p50.toFixed(1)),
        p99: Number(oneUser.p99.toFixed(1)),
        baseline: 'first verification of a cached number, users interleaved (the row above)',
        baselinePerSecond: manyUsers.perSecond,
        baselineP99: manyUsers.p99,
        ratio: Number((oneUser.perSecond / manyUsers.perSecond).toFixed(2)),
        target: 'exact quota, no 503',
        outcomes: [oneUser.outcomes],
      });
      console.log(`first verifications by one user: ${oneUser.perSecond.toFixed(0)}/s ${JSON.stringify(oneUser.outcomes)}`);
      summarise(
        await compare('GET /v1/quota/usage', 'bare Fastify GET', () => load(workDir, quotaPlan({ durationSeconds: SECONDS })), bareQuota),
        '>= 0.35x',
      );
      markHighWater('first verifications by one user, quota');

      // Cold: distinct new numbers through queue and worker against a register that takes 200 ms.
      await setSandboxLatency(sandbox.url, SANDBOX_LATENCY_MS);
      await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
      const coldNumbers = Array.from({ length: COLD_NUMBERS }, (_, index) => number('16', index));
      const cold = await load(workDir, verifyPlan(coldNumbers, userKeys, { amount: COLD_NUMBERS }));
      const workers = 1;
      const expected = Math.min(REGISTER_MAX_PER_SECOND, (workers * WORKER_CONCURRENCY * 1000) / SANDBOX_LATENCY_MS);
      const coldUpstream = ((await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as { total: number }).total;
      rows.push({
        scenario: `cold verifications (${COLD_NUMBERS} new numbers, register latency ${SANDBOX_LATENCY_MS} ms)`,
        perSecond: Math.round(cold.perSecond),
        p50: Number(cold.p50.toFixed(1)),
        p99: Number(cold.p99.toFixed(1)),
        baseline: `min(register budget ${REGISTER_MAX_PER_SECOND}/s, ${workers} worker x ${WORKER_CONCURRENCY} / ${SANDBOX_LATENCY_MS} ms)`,
        baselinePerSecond: expected,
        ratio: Number((cold.perSecond / expected).toFixed(2)),
        target: '>= 0.9x, one upstream request per number',
        outcomes: [cold.outcomes],
        upstreamRequests: coldUpstream,
      });
      console.log(`cold: ${cold.perSecond.toFixed(0)} completions/s of ${expected} possible; ${coldUpstream} upstream requests`);

      // Single flight: many users at once for one new number.
      await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
      const burst = await load(
        workDir,
        verifyPlan([repeatNumbers[0].replace(/^15/, '17')], userKeys, {
          connections: SINGLE_FLIGHT_REQUESTS,
          amount: SINGLE_FLIGHT_REQUESTS,
        }),
      );
      const burstUpstream = ((await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as { total: number }).total;
      console.log(`single flight: ${SINGLE_FLIGHT_REQUESTS} requests made ${burstUpstream} upstream request(s) ${JSON.stringify(burst.outcomes)}`);
      singleFlight = { requests: SINGLE_FLIGHT_REQUESTS, users: USERS, upstreamRequests: burstUpstream, outcomes: burst.outcomes };
      markHighWater('cold, single flight');

      // Live verifications of new numbers, alone and while a 1,000-row batch of new numbers runs at batch priority.
      const batchImpact = await measureBatchImpact({
        baseUrl: apiUrl,
        batchKey: userKeys[1],
        verifyKey: userKeys[2],
        batchNumbers: Array.from({ length: 1000 }, (_, index) => number('18', index)),
        verifyNumbers: Array.from({ length: BATCH_IMPACT_VERIFIES }, (_, index) => number('19', index)),
      });
      rows.push({
        scenario: `single verifications of new numbers while a 1,000-row batch runs (register latency ${SANDBOX_LATENCY_MS} ms)`,
        perSecond: Math.round(batchImpact.duringBatch.perSecond),
        p50: Number(batchImpact.duringBatch.p50.toFixed(1)),
        p99: Number(batchImpact.duringBatch.p99.toFixed(1)),
        baseline: 'the same verifications with no batch running',
        baselinePerSecond: Math.round(batchImpact.withoutBatch.perSecond),
        baselineP50: Number(batchImpact.withoutBatch.p50.toFixed(1)),
        ratio: Number((batchImpact.duringBatch.perSecond / batchImpact.withoutBatch.perSecond).toFixed(2)),
        target: 'final answers, no 202, p99 well under the 5 s wait',
        outcomes: [batchImpact.withoutBatch.outcomes, batchImpact.duringBatch.outcomes],
        batchSeconds: Number(batchImpact.batchSeconds.toFixed(1)),
        batchStillRunningAfterLastVerify: batchImpact.overlapped,
      });
      console.log(`batch impact: ${JSON.stringify(rows[rows.length - 1])}`);
      markHighWater('batch impact');
    }
    if (BENCH_ROWS.has('watch-impact')) rows.push(await watchImpactRow({ workDir, env, nodeFlags: NODE_FLAGS, postgresUrl: POSTGRES_URL, startProcess }));

    if (BENCH_ROWS.has('cluster')) {
      // The same API and worker on a private 3-primary cluster (its prefix a hash tag), same database, the
      // register fast again: warmed up as above, then the two rows, with users of their own for the new charges.
      await setSandboxLatency(sandbox.url, 0);
      const cluster = await PrivateRedisCluster.start();
      const clusterEnv = { ...env, REDIS_CLUSTER_NODES: cluster.nodeList, REDIS_PREFIX: `{${runId}}` };
      const clusterProcesses: ChildProcess[] = [];
      try {
        const clusterApi = await startProcess(workDir, 'dist/src/main.js', clusterEnv, /API listening on ([\d.]+:\d+)/, NODE_FLAGS.api);
        clusterProcesses.push(clusterApi.child);
        clusterProcesses.push((await startProcess(workDir, 'dist/src/worker.js', clusterEnv, /Worker running()/, NODE_FLAGS.worker)).child);
        const clusterUrl = `http://${clusterApi.url}`;
        const clusterDb = new Client({ connectionString: databaseUrl });
        await clusterDb.connect();
        const clusterFirstChargeKeys = await createUsers(clusterDb, FIRST_CHARGE_USERS, 'bench first charge, cluster');
        await clusterDb.end();
        for (let pass = 0; pass < 2; pass++) await load(workDir, { ...verifyPlan(repeatNumbers, userKeys, { amount: pairs }), url: clusterUrl });
        await cachedRepeatRow(clusterUrl, ', Redis Cluster (3 primaries)');
        await firstVerificationRow(clusterUrl, clusterFirstChargeKeys, ', Redis Cluster (3 primaries)');
      } finally {
        await stopProcesses(clusterProcesses);
        await cluster.destroy();
      }
    }

    for (const line of [...(await errorLines(api.logFile)), ...(await errorLines(worker.logFile))]) console.error(`error line logged: ${line}`);
    const memory = {
      apiPeakMiB: Math.round(peakResidentMiB(api.child.pid!)),
      workerPeakMiB: Math.round(peakResidentMiB(worker.child.pid!)),
      highWaterMarks,
    };
    console.log(`peak resident memory: API ${memory.apiPeakMiB} MiB, worker ${memory.workerPeakMiB} MiB (target <= 192 each)`);
    console.log(`high-water marks (API/worker MiB) after: ${highWaterMarks.map((mark) => `${mark.after} ${mark.apiMiB}/${mark.workerMiB}`).join('; ')}`);

    writeResults(rows, {
      singleFlight,
      memory,
      floorCheck,
    });
    if (floorCheck && !floorCheck.passed) {
      console.error(`The floor check failed: ${floorCheck.reason}`);
      process.exitCode = 1;
    }
  } finally {
    await stopProcesses(children);
    await sandbox.close();
    await admin.query(`DROP DATABASE IF EXISTS "${runId}" WITH (FORCE)`);
    await admin.end();
    const redis = new Redis(REDIS_URL);
    await deleteKeysWithPrefix(redis, runId);
    redis.disconnect();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
