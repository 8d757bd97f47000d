import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DEVELOPMENT_HOLDER_DATA_KEY_HEX, DEVELOPMENT_RECEIPT_KEY, DEVELOPMENT_WEBHOOK_KEY_HEX } from '../../src/config/development-keys';
import { ApiProcess } from '../support/api-process';
import { PrivateRedis } from '../support/private-redis';
import { ServiceProcess } from '../support/service-process';
import { startTestApp, TestApp } from '../support/test-app';
import { WorkerProcess } from '../support/worker-process';

const ENTRIES = { api: join(__dirname, '../../dist/src/main.js'), worker: join(__dirname, '../../dist/src/worker.js') };
const KEY = '3f9a1c07e5b24d68a0c1e2f3b4d5a6978e1f2a3b4c5d6e7f8091a2b3c4d5e6f7';
const OTHER_KEY = 'c4d5e6f73f9a1c07e5b24d68a0c1e2f3b4d5a6978e1f2a3b4c5d6e7f8091a2b3';
const TOKEN = 'q7Lm2Xv9Rt4Kp8Wz3Nc6Hb5Jd1Fg0Sa2';
const RECEIPT_KEY = 'Qm9uZWQgcmVjZWlwdCBrZXkgZm9yIHRoZSBzcGVjczA';
const PUBLIC_BASE_URL = 'https://lvs.example.com';
/** Everything production needs, so that each case below breaks exactly one setting (OPERATOR_PORT and PUBLIC_BASE_URL matter to the API only). */
const SOUND = { WEBHOOK_SECRET_KEY: KEY, HOLDER_DATA_KEY: OTHER_KEY, RECEIPT_SIGNING_KEYS: RECEIPT_KEY, OPERATOR_PORT: '0', PUBLIC_BASE_URL };
const refusal = (setting: string, problem: string) => `Invalid configuration: ${setting}: ${setting} ${problem} when NODE_ENV is production`;
const DEVELOPMENT_KEY = 'must not be a development key published in the source';
const ONE_BYTE = 'must not be one byte repeated (such as all zeros)';
const NO_KEY_LINE = 'Invalid configuration: WEBHOOK_SECRET_KEY: WEBHOOK_SECRET_KEY must be set (64 hex digits) when NODE_ENV is production';
const NO_HOLDER_KEY_LINE = 'Invalid configuration: HOLDER_DATA_KEY: HOLDER_DATA_KEY must be set (64 hex digits) when NODE_ENV is production';
const NO_RECEIPT_KEY_LINE =
  'Invalid configuration: RECEIPT_SIGNING_KEYS: RECEIPT_SIGNING_KEYS must list at least one key (npm run admin -- receipt-key) when NODE_ENV is production';
const SHORT_TOKEN_LINE =
  'Invalid configuration: ADMIN_TOKEN: ADMIN_TOKEN must be at least 32 characters when NODE_ENV is production (or unset, which keeps the dashboard off)';
const EVICTION_WARNING =
  'Redis maxmemory-policy is allkeys-lru: under memory pressure it evicts queued jobs, payers and idempotency records; set it to noeviction';

/** Runs an entry point that should refuse to start; a process that starts instead is ended after 15 s. */
function runToExit(entry: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [entry], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 15_000 });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** The messages of a process's JSON log lines that mention maxmemory-policy, with their pino level. */
function evictionWarnings(service: ServiceProcess): [number, string][] {
  return service.log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.msg.includes('maxmemory-policy'))
    .map((line) => [line.level, line.msg]);
}

describe('start-up safety of the API and the worker', () => {
  let t: TestApp;
  const started: ServiceProcess[] = [];
  const redisServers: PrivateRedis[] = [];

  beforeAll(async () => {
    t = await startTestApp();
  });
  // The processes go before their Redis: stopping without it would wait out reconnects.
  afterEach(async () => {
    await Promise.all(started.splice(0).map((service) => service.stop()));
    await Promise.all(redisServers.splice(0).map((redis) => redis.destroy()));
  });
  afterAll(() => t.close());

  describe('with NODE_ENV=production', () => {
    it.each([
      ['api', 'WEBHOOK_SECRET_KEY unset', { HOLDER_DATA_KEY: KEY, RECEIPT_SIGNING_KEYS: RECEIPT_KEY }, NO_KEY_LINE],
      ['worker', 'WEBHOOK_SECRET_KEY unset', { HOLDER_DATA_KEY: KEY, RECEIPT_SIGNING_KEYS: RECEIPT_KEY }, NO_KEY_LINE],
      ['api', 'HOLDER_DATA_KEY unset', { WEBHOOK_SECRET_KEY: KEY, RECEIPT_SIGNING_KEYS: RECEIPT_KEY }, NO_HOLDER_KEY_LINE],
      ['worker', 'HOLDER_DATA_KEY unset', { WEBHOOK_SECRET_KEY: KEY, RECEIPT_SIGNING_KEYS: RECEIPT_KEY }, NO_HOLDER_KEY_LINE],
      ['api', 'RECEIPT_SIGNING_KEYS unset', { WEBHOOK_SECRET_KEY: KEY, HOLDER_DATA_KEY: OTHER_KEY, OPERATOR_PORT: '0' }, NO_RECEIPT_KEY_LINE],
      ['worker', 'RECEIPT_SIGNING_KEYS unset', { WEBHOOK_SECRET_KEY: KEY, HOLDER_DATA_KEY: OTHER_KEY }, NO_RECEIPT_KEY_LINE],
      ['api', 'a 31-character ADMIN_TOKEN', { ...SOUND, ADMIN_TOKEN: TOKEN.slice(1) }, SHORT_TOKEN_LINE],
      ['worker', 'a 31-character ADMIN_TOKEN', { ...SOUND, ADMIN_TOKEN: TOKEN.slice(1) }, SHORT_TOKEN_LINE],
      ...(['api', 'worker'] as const).flatMap(
        (role) =>
          [
            [role, 'an all-zero WEBHOOK_SECRET_KEY', { ...SOUND, WEBHOOK_SECRET_KEY: '00'.repeat(32) }, refusal('WEBHOOK_SECRET_KEY', ONE_BYTE)],
            [
              role,
              'the development webhook key',
              { ...SOUND, WEBHOOK_SECRET_KEY: DEVELOPMENT_WEBHOOK_KEY_HEX },
              refusal('WEBHOOK_SECRET_KEY', DEVELOPMENT_KEY),
            ],
            [
              role,
              'the development key in WEBHOOK_SECRET_KEYS',
              { ...SOUND, WEBHOOK_SECRET_KEYS: `${OTHER_KEY},${DEVELOPMENT_WEBHOOK_KEY_HEX}` },
              refusal('WEBHOOK_SECRET_KEYS', DEVELOPMENT_KEY),
            ],
            [
              role,
              'the development HOLDER_DATA_KEY',
              { ...SOUND, HOLDER_DATA_KEY: DEVELOPMENT_HOLDER_DATA_KEY_HEX },
              refusal('HOLDER_DATA_KEY', DEVELOPMENT_KEY),
            ],
            [role, 'an HOLDER_DATA_KEY of one repeated byte', { ...SOUND, HOLDER_DATA_KEY: 'ab'.repeat(32) }, refusal('HOLDER_DATA_KEY', ONE_BYTE)],
            [
              role,
              'an ADMIN_TOKEN of one repeated letter',
              { ...SOUND, ADMIN_TOKEN: 't'.repeat(32) },
              `${refusal('ADMIN_TOKEN', 'must have at least 8 different characters')} (openssl rand -hex 24 makes one)`,
            ],
            [
              role,
              'the development receipt key',
              { ...SOUND, RECEIPT_SIGNING_KEYS: DEVELOPMENT_RECEIPT_KEY },
              refusal('RECEIPT_SIGNING_KEYS', 'must not list the development key published in the source'),
            ],
            [
              role,
              'WEBHOOK_ALLOW_PRIVATE_URLS=true',
              { ...SOUND, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
              'Invalid configuration: WEBHOOK_ALLOW_PRIVATE_URLS: WEBHOOK_ALLOW_PRIVATE_URLS must be false when NODE_ENV is production: it lets webhooks reach internal addresses',
            ],
          ] as const,
      ),
      [
        'api',
        'no OPERATOR_PORT',
        { WEBHOOK_SECRET_KEY: KEY, HOLDER_DATA_KEY: OTHER_KEY, RECEIPT_SIGNING_KEYS: RECEIPT_KEY, PUBLIC_BASE_URL },
        'Invalid configuration: OPERATOR_PORT: OPERATOR_PORT must be set when NODE_ENV is production: without it the partner port serves /metrics, /health/* and the queue dashboard',
      ],
      [
        'api',
        'no PUBLIC_BASE_URL',
        { WEBHOOK_SECRET_KEY: KEY, HOLDER_DATA_KEY: OTHER_KEY, RECEIPT_SIGNING_KEYS: RECEIPT_KEY, OPERATOR_PORT: '0' },
        "Invalid configuration: PUBLIC_BASE_URL: PUBLIC_BASE_URL must be set when NODE_ENV is production: it is the issuer (iss) of every receipt, never a request's Host",
      ],
      [
        'api',
        'an http PUBLIC_BASE_URL, even on loopback',
        { ...SOUND, PUBLIC_BASE_URL: 'http://localhost:3000' },
        "Invalid configuration: PUBLIC_BASE_URL: PUBLIC_BASE_URL must be an https address when NODE_ENV is production: partners send API keys to it, and the console's cookies are Secure",
      ],
    ] as const)(
      'the %s refuses %s: exit 1 and exactly one line naming it',
      async (role, _case, secrets, line) => {
        const { code, output } = await runToExit(ENTRIES[role], { ...t.env, NODE_ENV: 'production', ...secrets });
        expect({ code, output }).toEqual({ code: 1, output: `${line}\n` });
      },
      20_000,
    );

    it.each([
      ['WEBHOOK_SECRET_KEY', { WEBHOOK_SECRET_KEY: KEY }],
      ['WEBHOOK_SECRET_KEYS alone (a rotation list)', { WEBHOOK_SECRET_KEYS: `${OTHER_KEY},${KEY}` }],
    ] as const)(
      'both start with %s and a 32-character token, without the development-key warning (the worker without OPERATOR_PORT)',
      async (_case, keys) => {
        const env = { ...t.env, NODE_ENV: 'production', ...keys, HOLDER_DATA_KEY: OTHER_KEY, RECEIPT_SIGNING_KEYS: RECEIPT_KEY, ADMIN_TOKEN: TOKEN };
        const api = await ApiProcess.start({ ...env, OPERATOR_PORT: '0', PUBLIC_BASE_URL });
        started.push(api);
        const worker = await WorkerProcess.start(env);
        started.push(worker);
        expect((await fetch(`${api.baseUrl}/health/live`)).status).toBe(404); // on the operators' port
        const operatorsPort = /Operators' listener .* on [\d.]+:(\d+)/.exec(api.log)![1];
        expect((await fetch(`http://127.0.0.1:${operatorsPort}/health/live`)).status).toBe(200);
        for (const service of [api, worker]) {
          expect(service.log).not.toContain('WEBHOOK_SECRET_KEY is not set');
          expect(service.log).not.toContain('HOLDER_DATA_KEY is not set');
        }
        expect(api.log).not.toContain('RECEIPT_SIGNING_KEYS is not set');
      },
      45_000,
    );
  });

  describe('the Redis eviction policy', () => {
    /** API and worker on a private Redis started with `policy`, both ready. */
    async function startOnRedis(policy: string): Promise<[ApiProcess, WorkerProcess]> {
      const redis = await PrivateRedis.start(['--maxmemory-policy', policy]);
      redisServers.push(redis);
      const env = { ...t.env, REDIS_URL: redis.url };
      const api = await ApiProcess.start(env);
      started.push(api);
      const worker = await WorkerProcess.start(env);
      started.push(worker);
      return [api, worker];
    }

    it('is warned about once by each process when Redis evicts (allkeys-lru)', async () => {
      const [api, worker] = await startOnRedis('allkeys-lru');
      expect(evictionWarnings(api)).toEqual([[40, EVICTION_WARNING]]);
      expect(evictionWarnings(worker)).toEqual([[40, EVICTION_WARNING]]);
    }, 45_000);

    it('is not warned about with noeviction', async () => {
      const [api, worker] = await startOnRedis('noeviction');
      expect([evictionWarnings(api), evictionWarnings(worker)]).toEqual([[], []]);
    }, 45_000);
  });

  describe('a Redis that requires a password (as compose runs it)', () => {
    it('is used by the API and the worker with the password in REDIS_URL; without it Redis refuses', async () => {
      const redis = await PrivateRedis.start(['--requirepass', 'a-compose-password']);
      redisServers.push(redis);
      const env = { ...t.env, REDIS_URL: redis.url.replace('redis://', 'redis://:a-compose-password@') };
      const api = await ApiProcess.start(env);
      started.push(api);
      const worker = await WorkerProcess.start(env);
      started.push(worker);
      const { key } = await t.createKey();
      const listed = await fetch(`${api.baseUrl}/v1/watchlist`, { headers: { 'x-api-key': key } });
      expect([listed.status, listed.headers.get('ratelimit-policy') !== null]).toEqual([200, true]); // its bucket is in Redis
      const workerReady = `http://127.0.0.1:${/Operators' listener .* on [\d.]+:(\d+)/.exec(worker.log)![1]}/health/ready`;
      expect((await fetch(workerReady)).status).toBe(200);
      const anonymous = redis.client();
      anonymous.on('error', () => undefined); // its refused handshake, also reported as an event
      try {
        await expect(anonymous.get('x')).rejects.toThrow(/NOAUTH/);
      } finally {
        anonymous.disconnect();
      }
    }, 45_000);
  });

  describe("the worker's readiness", () => {
    it("keeps the worker's readiness within DEPENDENCY_TIMEOUT_MS of a frozen Redis (its client's own deadline, no timer of ours)", async () => {
      const redis = await PrivateRedis.start();
      redisServers.push(redis);
      const worker = await WorkerProcess.start({ ...t.env, REDIS_URL: redis.url, DEPENDENCY_TIMEOUT_MS: '500' });
      started.push(worker);
      const ready = `http://127.0.0.1:${/Operators' listener .* on [\d.]+:(\d+)/.exec(worker.log)![1]}/health/ready`;
      expect((await fetch(ready)).status).toBe(200);
      redis.freeze();
      const began = Date.now();
      const frozen = await fetch(ready);
      const took = Date.now() - began;
      redis.thaw();
      expect([frozen.status, await frozen.json()]).toEqual([
        503,
        { code: 'SERVICE_UNAVAILABLE', message: 'The worker cannot reach Redis; try again later' },
      ]);
      expect(took).toBeLessThan(1500);
    }, 45_000);
  });
});
