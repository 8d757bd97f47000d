import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { sandboxAddress } from '@lvs/register-sandbox/sandbox-address';
import { operatorsHost } from '../../src/config/env.schema';
import { readNodeFlags } from '../../src/config/node-flags';
import {
  DEMO_CANARIES,
  DEMO_CANARY_SECONDS,
  DEMO_RECHECK_SECONDS,
  DEMO_SLOW_LATENCY_MS,
  DEMO_SLOW_PREFIX,
  DemoData,
  demoBanner,
  demoWarningsLine,
  displayUrl,
  startBanner,
  STOP_LINE,
} from './banner';
import { databaseName, demoStores, dropDemoDatabase } from './demo-isolation';
import { DEMO_RECEIVER_PATHS, DemoReceiver } from './demo-receiver';
import { childLogFormat, LauncherEnvironment, readLauncherEnvironment } from './launcher-settings';
import { prefixesFor } from './line-prefixer';
import { registerUnreachable } from './register-reachability';
import { ListeningPort, listeningPorts, portInUseMessage } from './listening-ports';
import { isPortFree, isPortOpen, NO_REDIS_SERVER_MESSAGE, startEmbeddedPostgres, startLocalRedis } from './local-servers';
import { Supervised, Supervisor } from './supervisor';

// `npm start` and `npm run demo` (after scripts/ensure-build.js): dist/tools/launcher/main.js, beside dist/src.
const DIST_SRC = join(__dirname, '../../src');
const ENTRY = {
  api: join(DIST_SRC, 'main.js'),
  worker: join(DIST_SRC, 'worker.js'),
  migrate: join(DIST_SRC, 'cli/migrate.cli.js'),
  admin: join(DIST_SRC, 'cli/admin.cli.js'),
  sandbox: join(DIST_SRC, '../libs/register-sandbox/src/main.js'),
  embeddedPostgres: join(__dirname, 'embedded-postgres.js'),
};
const PACKAGE_JSON = join(DIST_SRC, '../../package.json');
const NODE_FLAGS = { api: readNodeFlags(PACKAGE_JSON, 'api'), worker: readNodeFlags(PACKAGE_JSON, 'worker') };
const READY_TIMEOUT_MS = 60_000;
const DEMO_REGISTER_TIMEOUT_MS = DEMO_SLOW_LATENCY_MS + 4000;

type Env = Record<string, string | undefined>;

class Launcher {
  private readonly prefixes: Map<string, string>;
  private readonly supervisor: Supervisor;
  private readonly stoppable: { name: string; stop: () => Promise<void> }[] = [];
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly environment: LauncherEnvironment,
    private readonly demo: boolean,
  ) {
    const workers = Array.from({ length: environment.launcher.WORKERS }, (_, index) => `worker-${index + 1}`);
    this.prefixes = prefixesFor(['lvs', 'postgres', 'redis', 'migrate', 'sandbox', 'receiver', 'api', ...workers]);
    this.supervisor = new Supervisor(this.prefixes, (line) => process.stdout.write(`${line}\n`));
  }

  say(line: string, from = 'lvs'): void {
    process.stdout.write(`${this.prefixes.get(from)}${line}\n`);
  }

  async run(): Promise<void> {
    const { settings, launcher, inherited } = this.environment;
    // Before anything starts: a port in use is named with its setting, not left to a child's EADDRINUSE stack.
    await this.checkPortsFree(listeningPorts({ ...settings, WORKERS: launcher.WORKERS }, this.demo ? sandboxAddress(inherited) : null));
    const dataDir = resolve(launcher.LVS_DATA_DIR);
    const env: Env = { ...inherited, MIGRATIONS_RUN: 'false' };
    env.REDIS_URL = await this.redisUrl(join(dataDir, 'redis'));
    env.DATABASE_URL = await this.databaseUrl(join(dataDir, 'postgres'));
    let demoData: DemoData | null = null;
    if (this.demo) {
      const stores = demoStores(env.DATABASE_URL, settings.REDIS_PREFIX);
      env.DATABASE_URL = stores.databaseUrl;
      env.REDIS_PREFIX = stores.redisPrefix;
      demoData = { database: databaseName(stores.databaseUrl), redisPrefix: stores.redisPrefix };
      this.say(`Starting the demo with empty demo data: dropping database ${demoData.database}, an earlier demo's users go with it`);
      await dropDemoDatabase(stores.databaseUrl);
    }
    env.LOG_FORMAT = childLogFormat(inherited.LOG_FORMAT, this.demo, process.stdout.isTTY === true);

    this.say('Applying migrations');
    const migrate = this.supervisor.start('migrate', process.execPath, [ENTRY.migrate], env);
    if ((await migrate.exited) !== 0) throw new Error('Migrations failed (see above)');

    let key = '';
    let testKey = '';
    let sandboxUrl = '';
    let receiverUrl = '';
    if (this.demo) {
      const sandbox = this.track(
        this.supervisor.start('sandbox', process.execPath, [ENTRY.sandbox], {
          ...env,
          SANDBOX_SLOW_PREFIX: DEMO_SLOW_PREFIX,
          SANDBOX_SLOW_LATENCY_MS: String(DEMO_SLOW_LATENCY_MS),
        }),
      );
      sandboxUrl = (await sandbox.waitFor(/Register sandbox listening on (\S+)/, READY_TIMEOUT_MS))[1];
      env.REGISTER_URL = sandboxUrl;
      env.REGISTER_REQUEST_TIMEOUT_MS = String(DEMO_REGISTER_TIMEOUT_MS);
      // Monitoring at demo speed, with webhooks to the receiver on loopback.
      env.WATCH_RECHECK_SECONDS = String(DEMO_RECHECK_SECONDS);
      env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
      const alertSecret = `whsec_${randomBytes(32).toString('base64')}`;
      const receiver = await DemoReceiver.start((line) => this.say(line, 'receiver'), alertSecret);
      this.stoppable.push({ name: 'receiver', stop: () => receiver.close() });
      receiverUrl = receiver.url;
      // Register watch at demo speed: canaries from the sandbox's data, operator alerts to the receiver.
      env.REGISTER_CANARY_NUMBERS = DEMO_CANARIES.join(',');
      env.REGISTER_CANARY_SECONDS = String(DEMO_CANARY_SECONDS);
      env.OPERATOR_ALERT_URL = `${receiverUrl}${DEMO_RECEIVER_PATHS.alerts}`;
      env.OPERATOR_ALERT_SECRET = alertSecret;
      ({ key, testKey } = this.createDemoKeys(env));
    }

    // Asked while the processes start; the banner says why the register cannot be reached, if it cannot.
    const registerProblem = registerUnreachable(env.REGISTER_URL ?? settings.REGISTER_URL);
    if (this.demo) this.say(demoWarningsLine(env));
    const api = this.track(this.supervisor.start('api', process.execPath, [...NODE_FLAGS.api, ENTRY.api], env));
    const apiPort = Number((await api.waitFor(/API listening on \S+:(\d+)/, READY_TIMEOUT_MS))[1]);
    const workers = Array.from({ length: launcher.WORKERS }, (_, index) => {
      const port = settings.WORKER_HTTP_PORT === 0 ? 0 : settings.WORKER_HTTP_PORT + index;
      return this.track(
        this.supervisor.start(`worker-${index + 1}`, process.execPath, [...NODE_FLAGS.worker, ENTRY.worker], { ...env, WORKER_HTTP_PORT: String(port) }),
      );
    });
    await Promise.all(workers.map((worker) => worker.waitFor(/Worker running/, READY_TIMEOUT_MS)));

    const apiUrl = displayUrl(settings.HOST, apiPort);
    // The API logs its operators' listener before it listens for partners, so the line is there by now.
    const operatorsUrl =
      settings.OPERATOR_PORT === null
        ? apiUrl
        : displayUrl(operatorsHost(settings), Number((await api.waitFor(/Operators' listener .* on \S+:(\d+)/, READY_TIMEOUT_MS))[1]));
    this.say(`Processes: ${this.supervisor.describeRunning()}`);
    // Last, once every process is ready, and unprefixed, so that addresses and commands can be copied as they are.
    const banner = [
      ...startBanner(apiUrl, operatorsUrl, this.demo ? sandboxUrl : settings.REGISTER_URL, await registerProblem, launcher.WORKERS),
      ...(demoData ? demoBanner(apiUrl, { key, testKey }, sandboxUrl, receiverUrl, demoData, operatorsUrl) : []),
      STOP_LINE,
    ];
    process.stdout.write(`\n${banner.join('\n')}\n\n`);

    // Any child that dies on its own takes the stack down: a half-running service is worse than none.
    for (const child of [api, ...workers]) {
      void child.exited.then((code) => {
        if (this.stopping) return;
        this.say(`${child.name} exited unexpectedly (code ${code}); stopping everything`);
        void this.stop(1);
      });
    }
  }

  private async checkPortsFree(ports: ListeningPort[]): Promise<void> {
    const free = await Promise.all(ports.map((entry) => isPortFree(entry.host, entry.port)));
    const busy = ports.filter((_, index) => !free[index]);
    if (busy.length > 0) throw new Error(busy.map(portInUseMessage).join('; '));
  }

  private track(child: Supervised): Supervised {
    const graceMs = this.environment.settings.SHUTDOWN_GRACE_MS + 5000;
    this.stoppable.push({ name: child.name, stop: () => child.stop(graceMs) });
    return child;
  }

  private async redisUrl(dataDir: string): Promise<string> {
    if (this.environment.redisUrlGiven) return this.environment.settings.REDIS_URL;
    const port = this.environment.launcher.LOCAL_REDIS_PORT;
    if (await isPortOpen(port)) return `redis://127.0.0.1:${port}`;
    this.say(`No Redis on 127.0.0.1:${port}: starting redis-server with its data in ${dataDir}`);
    const redis = await startLocalRedis(this.supervisor, port, dataDir, this.environment.inherited);
    if (!redis) {
      NO_REDIS_SERVER_MESSAGE.forEach((line) => this.say(line));
      throw new Error('No Redis');
    }
    this.track(redis);
    return `redis://127.0.0.1:${port}`;
  }

  private async databaseUrl(dataDir: string): Promise<string> {
    if (this.environment.databaseUrlGiven) return this.environment.settings.DATABASE_URL;
    const port = this.environment.launcher.LOCAL_POSTGRES_PORT;
    const url = `postgres://postgres@127.0.0.1:${port}/licence_verification`;
    if (await isPortOpen(port)) return url;
    this.say(`No PostgreSQL on 127.0.0.1:${port}: starting the embedded PostgreSQL with its data in ${dataDir}`);
    this.track(await startEmbeddedPostgres(this.supervisor, ENTRY.embeddedPostgres, port, dataDir, this.environment.inherited));
    return url;
  }

  /** The demo user's live key, and a test key of its test side. */
  private createDemoKeys(env: Env): { key: string; testKey: string } {
    const live = this.runAdmin(env, 'create', '--name', 'Demo user', '--quota', '100');
    const test = this.runAdmin(env, 'create', '--name', 'Demo test key', '--test', '--user', live.userId);
    return { key: live.key, testKey: test.key };
  }

  private runAdmin(env: Env, ...args: string[]): { key: string; userId: string } {
    const created = spawnSync(process.execPath, [ENTRY.admin, ...args], { env, encoding: 'utf8' });
    if (created.status !== 0) throw new Error(`Could not create the demo key: ${created.stderr}`);
    return JSON.parse(created.stdout) as { key: string; userId: string };
  }

  /** Stops the API first (it drains), then the workers, the sandbox and the databases, newest first. */
  stop(exitCode: number): Promise<void> {
    this.stopping ??= (async () => {
      this.say('Stopping');
      const api = this.stoppable.filter((entry) => entry.name === 'api');
      const workers = this.stoppable.filter((entry) => entry.name.startsWith('worker-'));
      const rest = this.stoppable.filter((entry) => !api.includes(entry) && !workers.includes(entry)).reverse();
      for (const group of [api, workers, ...rest.map((entry) => [entry])]) {
        await Promise.all(group.map((entry) => entry.stop().catch((error: unknown) => this.say(`${entry.name}: ${String(error)}`))));
      }
      this.say('Stopped');
      process.exit(exitCode);
    })();
    return this.stopping;
  }
}

async function main(): Promise<void> {
  let environment: LauncherEnvironment;
  try {
    environment = readLauncherEnvironment();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const launcher = new Launcher(environment, process.argv.includes('--demo'));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void launcher.stop(0));
  try {
    await launcher.run();
  } catch (error) {
    launcher.say(`Start-up failed: ${(error as Error).message}`);
    await launcher.stop(1);
  }
}

void main();
