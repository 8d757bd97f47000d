import { RegisterClient } from '@lvs/register';
import { startSandbox } from '@lvs/register-sandbox';
import Redis from 'ioredis';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { Agent, request } from 'undici';
import { LoadResult, runLoad } from './load';

/**
 * `npm run bench`: the service's paths measured over real HTTP against real processes (API, worker,
 * PostgreSQL, Redis, the sandbox register), each beside a baseline from the same run on the same
 * machine, so the ratios hold even where absolute numbers do not.
 */
const ROOT = process.cwd();
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SCALE = Number(process.env.BENCH_SCALE ?? '1');

function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function startProcess(entry: string, env: Record<string, string>, readyText: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(ROOT, entry)], { env: { PATH: process.env.PATH ?? '', ...env } });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(readyText)) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}:\n${output}`)));
  });
}

const row = (name: string, result: LoadResult, baseline?: LoadResult) =>
  [
    name.padEnd(44),
    String(result.requests).padStart(6),
    result.perSecond.toFixed(0).padStart(8),
    result.p50.toFixed(1).padStart(8),
    result.p95.toFixed(1).padStart(8),
    result.p99.toFixed(1).padStart(8),
    (baseline ? `${(result.perSecond / baseline.perSecond).toFixed(2)}x` : 'baseline').padStart(9),
    `  ${JSON.stringify(result.outcomes)}`,
  ].join('');

async function main(): Promise<void> {
  const runId = `lvs_bench_${Date.now().toString(36)}`;
  const sandbox = await startSandbox({ port: 0 });
  const port = await freePort();
  const databaseUrl = POSTGRES_URL.replace(/\/[^/]*$/, `/${runId}`);
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: runId,
    REGISTER_URL: sandbox.url,
    // The production limit (10/s) would measure the limiter; here we measure our own overhead.
    REGISTER_MAX_PER_SECOND: '1000',
    LOG_LEVEL: 'log',
    LOG_FORMAT: 'json',
    WORKER_HTTP_PORT: '0',
  };
  const processes: ChildProcess[] = [];
  const admin = new Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  const agent = new Agent({ connections: 64 });
  try {
    processes.push(await startProcess('dist/src/main.js', env, 'API listening'));
    processes.push(await startProcess('dist/src/worker.js', env, 'Worker running'));
    const created = spawnSync(process.execPath, [join(ROOT, 'dist/src/auth/keys.cli.js'), 'create', '--name', 'bench'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    const apiKey = (JSON.parse(created.stdout) as { key: string }).key;
    const baseUrl = `http://127.0.0.1:${port}`;
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    const verify = async (licenceNumber: string) => {
      const response = await request(`${baseUrl}/v1/licences/verify`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ licenceNumber }),
        dispatcher: agent,
      });
      await response.body.dump();
      return String(response.statusCode);
    };
    const numberAt = (base: number, index: number) => String(base + index).padStart(16, '1');
    const cold = Math.round(300 * SCALE);
    const warm = Math.round(3000 * SCALE);

    const client = new RegisterClient({ baseUrl: sandbox.url, maxConnections: 16 });
    const registerDirect = await runLoad(cold, 16, async (index) => {
      const outcome = await client.lookup(numberAt(18_000_000_000_000, index));
      return outcome.kind;
    });
    await client.close();
    const coldVerify = await runLoad(cold, 16, (index) => verify(numberAt(18_100_000_000_000, index)));

    const quotaUsage = await runLoad(warm, 32, async () => {
      const response = await request(`${baseUrl}/v1/quota/usage`, { headers, dispatcher: agent });
      await response.body.dump();
      return String(response.statusCode);
    });
    const cachedVerify = await runLoad(warm, 32, (index) => verify(numberAt(18_100_000_000_000, index % cold)));

    await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
    await fetch(`${sandbox.url}/__sandbox/fault`, {
      method: 'PUT',
      body: JSON.stringify({ fault: 'none', latencyMs: 200 }),
    });
    const burst = 200;
    const singleFlight = await runLoad(burst, burst, () => verify('1777000000000001'));
    const upstreamCalls = ((await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as { total: number }).total;

    // Thousands of clients waiting on slow lookups: what each waiting request costs the API process.
    const waiting = Math.round(2000 * SCALE);
    const apiPid = processes[0].pid!;
    await fetch(`${sandbox.url}/__sandbox/fault`, { method: 'PUT', body: JSON.stringify({ fault: 'none', latencyMs: 8000 }) });
    const manyAgent = new Agent({ connections: waiting + 10 });
    const rssBefore = residentBytes(apiPid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, residentBytes(apiPid))), 100);
    const waitingLoad = await runLoad(waiting, waiting, async (index) => {
      const response = await request(`${baseUrl}/v1/licences/verify`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ licenceNumber: numberAt(18_200_000_000_000, index % 50) }),
        dispatcher: manyAgent,
      });
      await response.body.dump();
      return String(response.statusCode);
    });
    clearInterval(sampler);
    await manyAgent.close();

    console.log(`\nMachine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
    console.log('Load generator, API, worker, sandbox, PostgreSQL and Redis share these cores.\n');
    console.log(`${'scenario'.padEnd(44)}${'reqs'.padStart(6)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'ratio'.padStart(9)}`);
    console.log(row('register client -> sandbox (direct)', registerDirect));
    console.log(row('verify, new numbers (API+queue+worker)', coldVerify, registerDirect));
    console.log(row('GET /v1/quota/usage (auth + 1 query)', quotaUsage));
    console.log(row('verify, cached numbers', cachedVerify, quotaUsage));
    console.log(row(`verify, ${burst} concurrent for one new number`, singleFlight));
    console.log(row(`verify, ${waiting} concurrent waiting on slow lookups`, waitingLoad));
    console.log(`\nSingle flight: ${burst} concurrent requests for one number made ${upstreamCalls} upstream request(s).`);
    console.log(
      `Waiting requests: ${waiting} concurrent requests held for the 5 s timeout raised the API's resident memory ` +
        `from ${(rssBefore / 2 ** 20).toFixed(0)} MiB to ${(rssPeak / 2 ** 20).toFixed(0)} MiB ` +
        `(${((rssPeak - rssBefore) / waiting / 1024).toFixed(1)} KiB per waiting request, sockets included).`,
    );
  } finally {
    for (const child of processes) child.kill('SIGTERM');
    await Promise.all(processes.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    await agent.close();
    await sandbox.close();
    await admin.query(`DROP DATABASE IF EXISTS "${runId}" WITH (FORCE)`);
    await admin.end();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${runId}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
