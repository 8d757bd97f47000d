import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { describeApiProductionProblems } from '../../src/config/production-secrets';
import { freePort } from '../support/launcher-process';
import { startTestApp, TestApp } from '../support/test-app';

const ROOT = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const run = promisify(execFile);

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  profiles?: string[];
  restart?: string;
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] };
}

function runHealthcheck(env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [join(ROOT, 'scripts/healthcheck.js')], { env: { PATH: process.env.PATH, ...env } });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

describe('deployment files', () => {
  // Compose resolves YAML merge keys (<<), which YAML 1.2 parsers leave alone unless asked.
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  const { services } = compose;

  it('runs PostgreSQL, Redis, one-shot migrations, the API, two workers, and the sandbox under the demo profile', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'migrations', 'postgres', 'redis', 'sandbox', 'worker']);
    expect(services.worker.deploy?.replicas).toBe(2);
    expect(services.migrations.restart).toBe('no');
    expect(services.api.depends_on?.migrations).toEqual({ condition: 'service_completed_successfully' });
    expect(services.worker.depends_on?.migrations).toEqual({ condition: 'service_completed_successfully' });
    expect(services.sandbox.profiles).toEqual(['demo']);
    expect(
      Object.entries(services)
        .filter(([, service]) => service.profiles)
        .map(([name]) => name),
    ).toEqual(['sandbox']);
  });

  it('starts each role with the npm script the tests and the launcher start', () => {
    const commands = Object.fromEntries(['migrations', 'api', 'worker', 'sandbox'].map((name) => [name, services[name].command]));
    expect(commands).toEqual({
      migrations: ['npm', 'run', 'migration:run'],
      api: ['npm', 'run', 'start:api'],
      worker: ['npm', 'run', 'start:worker'],
      sandbox: ['npm', 'run', 'sandbox'],
    });
    expect([scripts['migration:run'], scripts['start:api'], scripts['start:worker'], scripts.sandbox]).toEqual([
      'node dist/src/cli/migrate.cli.js',
      'node $npm_package_config_apiNodeFlags dist/src/main.js',
      'node $npm_package_config_workerNodeFlags dist/src/worker.js',
      'node dist/libs/register-sandbox/src/main.js',
    ]);
    for (const name of ['migrations', 'api', 'worker', 'sandbox']) {
      expect([name, services[name].image, services[name].environment?.DATABASE_URL]).toEqual([
        name,
        'licence-verification',
        'postgres://postgres:postgres@postgres:5432/licence_verification',
      ]);
    }
  });

  it('runs every role in production, requiring WEBHOOK_SECRET_KEY and HOLDER_DATA_KEY and passing an optional WEBHOOK_SECRET_KEYS, HOLDER_DATA_KEYS and ADMIN_TOKEN', () => {
    for (const name of ['migrations', 'api', 'worker', 'sandbox']) {
      const environment = services[name].environment ?? {};
      expect([
        name,
        environment.NODE_ENV,
        environment.WEBHOOK_SECRET_KEY,
        environment.HOLDER_DATA_KEY,
        environment.WEBHOOK_SECRET_KEYS,
        environment.HOLDER_DATA_KEYS,
        environment.ADMIN_TOKEN,
      ]).toEqual([
        name,
        'production',
        '${WEBHOOK_SECRET_KEY:?set WEBHOOK_SECRET_KEY to 64 hex digits, e.g. openssl rand -hex 32}',
        '${HOLDER_DATA_KEY:?set HOLDER_DATA_KEY to 64 hex digits, e.g. openssl rand -hex 32}',
        '${WEBHOOK_SECRET_KEYS:-}',
        '${HOLDER_DATA_KEYS:-}',
        '${ADMIN_TOKEN:-}',
      ]);
    }
  });

  it('requires PUBLIC_BASE_URL for the API, whose example is an https address, as production requires', () => {
    const required = services.api.environment?.PUBLIC_BASE_URL;
    expect(required).toBe('${PUBLIC_BASE_URL:?set PUBLIC_BASE_URL to the https address partners reach the API at, e.g. https://lvs.example.com}');
    const example = / e\.g\. (\S+)}$/.exec(required ?? '')![1];
    const documented = [...read('docs/operations.md').matchAll(/^export PUBLIC_BASE_URL=(\S+)/gm)].map((match) => match[1]);
    expect(documented.length).toBeGreaterThan(0);
    for (const address of [example, ...documented]) {
      expect([address, describeApiProductionProblems({ NODE_ENV: 'production', OPERATOR_PORT: 9100, PUBLIC_BASE_URL: address })]).toEqual([address, []]);
    }
  });

  it("serves the API's operator routes on OPERATOR_PORT, which is not published; only the partner port is", () => {
    expect(services.api.environment?.OPERATOR_PORT).toBe('9100');
    expect(services.api.ports).toEqual(['3000:3000']);
    expect(Object.entries(services).flatMap(([name, service]) => (service.ports ?? []).map((port) => `${name} ${port}`))).toEqual([
      'redis 127.0.0.1:6379:6379',
      'api 3000:3000',
    ]);
  });

  it('names no proxy for the directly published API, so a client cannot pick its address in X-Forwarded-For', () => {
    for (const name of ['migrations', 'api', 'worker']) expect([name, services[name].environment?.TRUST_PROXY]).toEqual([name, '${TRUST_PROXY:-none}']);
  });

  it("gives Redis a password, which every role's REDIS_URL and the health check use", () => {
    const required = '${REDIS_PASSWORD:?set REDIS_PASSWORD, e.g. openssl rand -hex 24}';
    const command = services.redis.command ?? [];
    expect(command[command.indexOf('--requirepass') + 1]).toBe(required);
    for (const name of ['migrations', 'api', 'worker', 'sandbox']) {
      expect([name, services[name].environment?.REDIS_URL]).toEqual([name, `redis://:${required}@redis:6379`]);
    }
    expect(services.redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', '--no-auth-warning', '-a', required, 'ping']);
  });

  it('keeps Redis durable: an append-only file and no eviction', () => {
    const command = services.redis.command ?? [];
    const option = (name: string) => command[command.indexOf(name) + 1];
    expect(command[0]).toBe('redis-server');
    expect([option('--appendonly'), option('--appendfsync'), option('--maxmemory-policy')]).toEqual(['yes', 'everysec', 'noeviction']);
  });

  it('builds one image on Node 24, running as a non-root user, with a health check', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile.match(/^FROM .*/gm)).toEqual(['FROM node:24-bookworm-slim AS build', 'FROM node:24-bookworm-slim']);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .* CMD \["node", "scripts\/healthcheck\.js"\]$/m);
    expect(dockerfile).toMatch(/^CMD \["npm", "run", "start:api"\]$/m);
  });

  it("starts the API and the worker through npm with package.json's config.apiNodeFlags and config.workerNodeFlags; the image adds none", async () => {
    expect(read('Dockerfile')).not.toMatch(/NODE_OPTIONS|MALLOC_ARENA_MAX/);
    // Preloaded into every node that npm starts; only the service's entry prints its flags and stops.
    const dir = mkdtempSync(join(tmpdir(), 'node-flags-'));
    const preload = join(dir, 'print-flags.js');
    writeFileSync(
      preload,
      "if (/dist\\/src\\/(main|worker)\\.js$/.test(process.argv[1])) { console.log('flags ' + JSON.stringify(process.execArgv)); process.exit(0); }",
    );
    try {
      const flagsOf = async (script: string) => {
        const { stdout } = await run('npm', ['run', '--silent', script], {
          cwd: ROOT,
          env: { PATH: process.env.PATH, NODE_OPTIONS: `--require ${preload}` },
        });
        return JSON.parse(/^flags (.*)$/m.exec(stdout)![1]) as string[];
      };
      expect(await flagsOf('start:api')).toEqual(['--max-semi-space-size=8', '--heap-growing-percent=25', '--no-allocation-site-pretenuring']);
      expect(await flagsOf('start:worker')).toEqual(['--max-semi-space-size=4', '--heap-growing-percent=25']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('the image health check', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('passes while the API answers on PORT, and fails when nothing answers', async () => {
      const [apiPort, closed] = [new URL(t.baseUrl).port, String(await freePort())];
      expect(await runHealthcheck({ PORT: apiPort, WORKER_HTTP_PORT: closed })).toBe(0);
      expect(await runHealthcheck({ PORT: closed, WORKER_HTTP_PORT: closed })).toBe(1);
    });

    it('asks OPERATOR_PORT instead of PORT when it is set (PORT then answers /health/live 404)', async () => {
      const [apiPort, closed] = [new URL(t.baseUrl).port, String(await freePort())];
      expect(await runHealthcheck({ OPERATOR_PORT: apiPort, PORT: closed, WORKER_HTTP_PORT: closed })).toBe(0);
      expect(await runHealthcheck({ OPERATOR_PORT: closed, PORT: apiPort, WORKER_HTTP_PORT: closed })).toBe(1);
    });
  });
});
