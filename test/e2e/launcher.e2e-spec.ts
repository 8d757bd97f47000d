import { RunningSandbox, startSandbox } from '@lvs/register-sandbox';
import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import {
  commandAfter,
  freePort,
  isAlive,
  isListening,
  isolatedLauncherSettings,
  LauncherProcess,
  parseCurl,
  removeDataDir,
  runInBash,
  scratchDataDir,
  STARTED,
} from '../support/launcher-process';
import { runAdminCli } from '../support/admin-cli';
import { until } from '../support/until';
import { databaseUrl, TEST_REDIS_URL, testRunId } from '../support/test-run';

async function expectAllGone(pids: Map<string, number>, ports: number[]): Promise<void> {
  expect([...pids.entries()].filter(([, pid]) => isAlive(pid))).toEqual([]);
  expect(await Promise.all(ports.map(isListening))).toEqual(ports.map(() => false));
}

describe('npm run demo', () => {
  let demo: LauncherProcess;
  let log: string;
  let dataDir: string;

  beforeAll(async () => {
    const name = `${testRunId()}_demo`;
    demo = LauncherProcess.start('demo', isolatedLauncherSettings(name, (dataDir = await scratchDataDir())));
    await demo.waitFor(STARTED, 120_000);
    log = demo.log;
  }, 150_000);
  afterAll(async () => {
    demo.kill();
    await demo.exited;
    await removeDataDir(dataDir);
  });

  it('says that answers come from the sandbox, and keeps its data apart from npm start', () => {
    expect(log).toMatch(/\nAnswers come from the register SANDBOX at http:\/\/127\.0\.0\.1:\d+, not the real register\.\n/);
    const name = `${testRunId()}_demo`;
    expect(log).toContain(`\nDemo data: database ${name}_demo, Redis prefix ${name}-demo (npm start keeps its own).\n`);
    expect(log).toMatch(/\nRegister +http:\/\/127\.0\.0\.1:\d+\n/);
  });

  it('prints a few readable lines, no JSON, then the banner last', () => {
    const bannerAt = log.indexOf('\nAPI          http');
    const before = log.slice(0, bannerAt).split('\n');
    expect(before.filter((line) => line.includes('{"level"'))).toEqual([]);
    expect(before.filter((line) => / \| \[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN): /.test(line)).length).toBeGreaterThan(0);
    expect(before.length).toBeLessThanOrEqual(22);
    // One line explains the warnings before the first of them, and every warning is one it explains.
    const explained = before.findIndex((line) =>
      /^lvs +\| Expected in a demo, so warned about below: a sandbox register, not the real one, and public development keys \(HOLDER_DATA_KEY, WEBHOOK_SECRET_KEY and RECEIPT_SIGNING_KEYS unset\)\.$/.test(
        line,
      ),
    );
    const warnings = before.filter((line) => / WARN: /.test(line));
    expect(explained).toBeGreaterThanOrEqual(0);
    expect(explained).toBeLessThan(before.indexOf(warnings[0]));
    expect(
      warnings.filter(
        (line) =>
          !/ WARN: (\((HolderData|Webhooks|Register|Receipts)\) )?(HOLDER_DATA_KEY|WEBHOOK_SECRET_KEY|RECEIPT_SIGNING_KEYS|REGISTER_URL) /.test(line),
      ),
    ).toEqual([]);
    // Nothing of any process comes between the banner and its last line.
    expect(
      log
        .slice(bannerAt)
        .split('\n')
        .filter((line) => /^[\w-]+ +\| /.test(line)),
    ).toEqual([]);
  });

  it('answers FOUND through the printed curl', async () => {
    const result = await runInBash(commandAfter(log, '# FOUND (200):'));
    const answer = parseCurl(result.stdout);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'FOUND', licence: { firstName: 'JANE', surname: 'DOE' } });
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers the printed test-mode curl with Verification-Mode: test, and counts it on the test side only', async () => {
    const testKey = log.match(/^Demo test key \(test mode: its own data and quota, never the live plan\): (lvs_test_\S+)$/m)![1];
    const verified = parseCurl((await runInBash(commandAfter(log, '# TEST MODE.'))).stdout);
    expect([verified.status, verified.headers['verification-mode']]).toEqual([200, 'test']);
    expect(verified.body).toMatchObject({ status: 'FOUND', licence: { firstName: 'JANE', surname: 'DOE' } });
    const lines = log.split('\n');
    const usageCommand = lines[lines.findIndex((line) => line.startsWith('# TEST MODE.')) + 2];
    expect(usageCommand).toContain(`X-API-Key: ${testKey}`);
    expect(JSON.parse((await runInBash(usageCommand)).stdout)).toMatchObject({ used: 1, quota: 1000, remaining: 999 });
  });

  it('answers NOT_FOUND through the printed curl', async () => {
    const answer = parseCurl((await runInBash(commandAfter(log, '# NOT_FOUND (404):'))).stdout);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      status: 'NOT_FOUND',
      message: 'No licence matches the number',
      licence: null,
      checkedAt: expect.any(String),
      verificationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('answers the slow example 202, then the result by joining the same lookup, 10 runs out of 10', async () => {
    const lines = log.split('\n');
    const at = lines.findIndex((line) => line.startsWith('SLOW='));
    const script = [lines[at], lines[at + 1], "echo '@@@'", lines[at + 2]].join('\n');
    const runs = await Promise.all(Array.from({ length: 10 }, () => runInBash(script)));
    const answers = runs.map((run) => run.stdout.split('@@@\n').map(parseCurl));
    expect(answers.map(([first]) => [first.status, first.body.status, first.headers['retry-after']])).toEqual(runs.map(() => [202, 'PENDING', '1']));
    // Joined, not answered from the cache: the retry waited for the same lookup to finish.
    expect(answers.map(([, retry]) => [retry.status, retry.body.status, retry.headers['x-verification-source']])).toEqual(
      runs.map(() => [404, 'NOT_FOUND', 'register']),
    );
    const quota = await runInBash(commandAfter(log, '# Quota (200):'));
    expect(JSON.parse(quota.stdout)).toMatchObject({ used: 12, quota: 100, remaining: 88 });
  }, 60_000);

  it('walks through monitoring pasted at once, as a newcomer does: watch, a webhook to the receiver, a revocation, the signed event verified', async () => {
    const lines = log.split('\n');
    // Every line of the section, comments included, as one paste into a shell.
    const section = lines.slice(lines.findIndex((line) => line.startsWith('# MONITORING')));
    const steps = section.slice(0, section.indexOf(''));
    const pasted = steps.join('\n');
    const events = steps.filter((line) => line.startsWith('curl')).at(-1)!;
    const output = (await runInBash(pasted)).stdout;
    expect(output).toMatch(/^HTTP\/1\.1 201 Created\r\n/);
    expect(output).toContain('"licenceNumber":"1074556677889900","reference":"guard-42"');
    expect(output).toContain('ok\n1074556677889900 re-checked\n');
    expect(output).toContain('"status":"Revoked"');
    await demo.waitFor(/^receiver +\| Keeping the signing secret of webhook [0-9a-f-]{36} to verify what it sends$/m, 5000);

    const [, webhookId, body] = await demo.waitFor(
      /^receiver +\| Received licence\.status_changed \(webhook-id ([0-9a-f-]{36})\): signature verified\nreceiver +\| (.*)$/m,
      20_000,
    );
    expect(webhookId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(body)).toMatchObject({
      type: 'licence.status_changed',
      data: {
        licenceNumber: '1074556677889900',
        reference: 'guard-42',
        previous: { status: 'Active' },
        current: { status: 'Revoked' },
      },
    });
    expect(demo.log).not.toContain('signature NOT verified');
    const listed = JSON.parse((await runInBash(events)).stdout) as { events: { type: string }[] };
    expect(listed.events.map((event) => event.type)).toContain('licence.status_changed');
  }, 60_000);

  it('walks through register watch pasted at once: a canary changed, the signed register.canary_failed, drifted until acknowledged', async () => {
    const lines = log.split('\n');
    const section = lines.slice(lines.findIndex((line) => line.startsWith('# REGISTER WATCH')));
    const steps = section.slice(0, section.indexOf(''));
    const output = (await runInBash(steps.join('\n'))).stdout;
    expect(output).toContain('"register":"drifted"');
    const [, body] = await demo.waitFor(
      /^receiver +\| Received operator alert register\.canary_failed \(webhook-id alert_[0-9a-f-]{36}\): signature verified\nreceiver +\| (.*)$/m,
      20_000,
    );
    expect(JSON.parse(body)).toEqual({
      type: 'register.canary_failed',
      timestamp: expect.any(String),
      data: { licenceNumber: '1052334455667788', reason: 'changed: surname' },
    });

    // The surname is back (the paste's last step); the acknowledgement, as the banner says, makes readiness ok again.
    const name = `${testRunId()}_demo`;
    const acknowledged = await runAdminCli(
      { DATABASE_URL: databaseUrl(`${name}_demo`), REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `${name}-demo` },
      'canary',
      'acknowledge',
    );
    expect(acknowledged.status).toBe(0);
    const readiness = /until curl -s (\S+) /.exec(steps.find((line) => line.startsWith('until'))!)![1];
    const register = async () =>
      ((await (await fetch(readiness)).json()) as { info: { registerBreaker: { register: string } } }).info.registerBreaker.register;
    expect(await until(register, (state) => state === 'ok', 10_000)).toBe('ok');
  }, 60_000);

  it('checks a holder as printed: MATCH and CONFIRMED, then a MISMATCH, and finds both licences by name', async () => {
    const lines = log.split('\n');
    const [confirmed, mismatch, search] = lines
      .slice(lines.findIndex((line) => line.startsWith('# HOLDER CHECKS')))
      .filter((line) => line.startsWith('curl'))
      .slice(0, 3);
    const answers = await Promise.all([confirmed, mismatch, search].map(async (command) => parseCurl((await runInBash(command)).stdout)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers[0].body).toMatchObject({ status: 'FOUND', holderCheck: { name: 'MATCH', dateOfBirth: 'CONFIRMED' } });
    expect(answers[1].body).toMatchObject({ status: 'FOUND', holderCheck: { name: 'MISMATCH', dateOfBirth: 'NOT_CHECKED' } });
    expect((answers[2].body as { licences: { status: string }[] }).licences.map((licence) => licence.status)).toEqual(['Expired', 'Active']);
  });

  // After the monitoring walk-through, whose webhook the receiver verifies.
  it('walks through a successor pasted at once: watch with the holder, the card replaced, licence.replaced verified', async () => {
    const lines = log.split('\n');
    const section = lines.slice(lines.findIndex((line) => line.startsWith('# SUCCESSOR')));
    // Up to the step that lists the watchlist once the event has come.
    const pasted = section
      .slice(
        0,
        section.findIndex((line) => line.startsWith('# 3.')),
      )
      .join('\n');
    const watchlist = section
      .slice(
        0,
        section.findIndex((line) => line.startsWith('=====')),
      )
      .filter((line) => line.startsWith('curl'))
      .at(-1)!;
    const output = (await runInBash(pasted)).stdout;
    expect(output).toContain('HTTP/1.1 201 Created\r\n');
    expect(output).toContain('1400000000000018 re-checked\n');
    expect(output).toContain('"status":"Replaced"');

    const [, body] = await demo.waitFor(
      /^receiver +\| Received licence\.replaced \(webhook-id [0-9a-f-]{36}\): signature verified\nreceiver +\| (.*)$/m,
      30_000,
    );
    expect(JSON.parse(body)).toMatchObject({
      type: 'licence.replaced',
      data: { licenceNumber: '1400000000000018', reference: 'guard-43', successorLicenceNumber: '1400000000000026', confidence: 'NAME_AND_DATE_OF_BIRTH' },
    });
    const listed = JSON.parse((await runInBash(watchlist)).stdout) as { items: { licenceNumber: string; reference: string | null }[] };
    expect(listed.items.filter((item) => item.reference === 'guard-43').map((item) => item.licenceNumber)).toEqual([
      '1400000000000018',
      '1400000000000026',
    ]);
  }, 60_000);

  it("prints the console's address; the build serves its sign-in page, and the demo key signs in there", async () => {
    const apiUrl = log.match(/^API +(http:\/\/\S+)$/m)![1];
    const key = log.match(/^Demo key \(quota 100 per month\): (\S+)$/m)![1];
    expect(log).toContain(`\nConsole      ${apiUrl}/console\n`);
    expect(log).toContain(`\nConsole: open ${apiUrl}/console and sign in with the demo key.\n`);
    const signInPage = await fetch(`${apiUrl}/console/sign-in`);
    expect(signInPage.status).toBe(200);
    const token = /name="_csrf" value="([^"]+)"/.exec(await signInPage.text())![1];
    const signedIn = await fetch(`${apiUrl}/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: signInPage.headers.getSetCookie()[0].split(';')[0],
        origin: apiUrl,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ _csrf: token, apiKey: key }).toString(),
    });
    expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, '/console/overview']);
    expect((await fetch(`${apiUrl}/console/assets/console.css`)).status).toBe(200);
  });

  it('stops everything on Ctrl-C, leaving no process and no listening port', async () => {
    const pids = demo.pids();
    expect([...pids.keys()].sort()).toEqual(['api', 'sandbox', 'worker-1']);
    const ports = [
      Number(log.match(/^API +http:\/\/127\.0\.0\.1:(\d+)$/m)![1]),
      Number(log.match(/SANDBOX at http:\/\/127\.0\.0\.1:(\d+)/)![1]),
      Number(log.match(/Operators' listener .* on 127\.0\.0\.1:(\d+)/)![1]),
      Number(log.match(/\| curl -s -X POST http:\/\/127\.0\.0\.1:(\d+)\/secret/)![1]), // the webhook receiver
    ];
    expect(await demo.interrupt()).toBe(0);
    await expectAllGone(pids, ports);
  }, 30_000);
});

describe('npm run demo with a port in use', () => {
  let occupied: Server;
  let port: number;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await scratchDataDir();
    occupied = createServer();
    await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
    port = (occupied.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => occupied.close(resolve));
    await removeDataDir(dataDir);
  });

  it.each([
    ['WORKER_HTTP_PORT', "worker-1's operators' listener"],
    ['PORT', 'the API'],
    ['SANDBOX_PORT', 'the register sandbox'],
  ])(
    'names %s when its port is taken, starts nothing and exits 1',
    async (setting, owner) => {
      const name = `${testRunId()}_busy`;
      const demo = LauncherProcess.start('demo', { ...isolatedLauncherSettings(name, dataDir), [setting]: String(port) });
      expect(await demo.exited).toBe(1);
      expect(demo.log).toContain(`\nlvs      | Start-up failed: Port ${port} is in use (${owner}): set ${setting} to a free port\n`);
      expect(demo.log).not.toContain('EADDRINUSE');
      expect(demo.log).not.toContain('Applying migrations');
    },
    60_000,
  );
});

describe('npm start with a register that cannot be reached', () => {
  it('shows the register in the banner, logs the outage once with its cause and host, and once when it answers again', async () => {
    const name = `${testRunId()}_unreachable`;
    const dataDir = await scratchDataDir();
    const registerPort = await freePort(); // closed until the sandbox below listens on it
    const registerHost = `127.0.0.1:${registerPort}`;
    const env = {
      ...isolatedLauncherSettings(name, dataDir),
      REGISTER_URL: `http://${registerHost}`,
      LOOKUP_BACKOFF_MS: '50',
      REGISTER_BREAKER_FAILURES: '1000', // the breaker would keep the lookups away from the register
    };
    const launcher = LauncherProcess.start('start', env);
    let sandbox: RunningSandbox | undefined;
    try {
      await launcher.waitFor(STARTED, 150_000);
      expect(launcher.log).toContain(
        `\nRegister     http://${registerHost}\n` +
          '             CANNOT BE REACHED: connection refused (ECONNREFUSED). Verifications answer 503 until it can; check REGISTER_URL and the network.\n' +
          'Workers      1\n',
      );
      const apiUrl = launcher.log.match(/^API +(http:\/\/\S+)$/m)![1];
      const created = await runAdminCli({ DATABASE_URL: databaseUrl(name) }, 'create', '--name', 'unreachable', '--quota', '10');
      const { key } = JSON.parse(created.stdout) as { key: string };
      const verify = async (licenceNumber: string) => {
        const response = await fetch(`${apiUrl}/v1/licences/verify`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ licenceNumber }),
        });
        return [response.status, await response.json()];
      };

      // Two numbers, three attempts each: six failures, one line.
      for (const number of [SANDBOX_NUMBERS.active, SANDBOX_NUMBERS.expired]) {
        expect(await verify(number)).toEqual([
          503,
          { code: 'SERVICE_UNAVAILABLE', message: 'Upstream service is temporarily unavailable; try again later' },
        ]);
      }
      // npm start logs JSON lines, as in production.
      const outageLines = () =>
        launcher.log
          .split('\n')
          .filter((line) => line.startsWith('worker-1 | {'))
          .map((line) => JSON.parse(line.slice('worker-1 | '.length)) as { level: number; context: string; msg: string })
          .filter((line) => line.msg.startsWith(`Register ${registerHost} `))
          .map((line) => [line.level, line.context, line.msg]);
      const outage = [
        40,
        'LookupProcessor',
        `Register ${registerHost} unreachable: connection refused (ECONNREFUSED); lookups are retried, and further failures to reach it are not logged until it answers again`,
      ];
      expect(outageLines()).toEqual([outage]);
      expect(launcher.log).not.toContain('excerpt=');
      // Output to a pipe, so JSON lines; Nest's line per module and route only at debug level.
      expect(launcher.log).toContain('"context":"Main"');
      expect(launcher.log.match(/"context":"(InstanceLoader|RouterExplorer|RoutesResolver)"/g)).toBeNull();

      sandbox = await startSandbox({ port: registerPort });
      expect(await verify(SANDBOX_NUMBERS.active)).toEqual([200, expect.objectContaining({ status: 'FOUND' })]);
      await launcher.waitFor(/answering again/, 5000);
      expect(outageLines()).toEqual([outage, [30, 'LookupProcessor', `Register ${registerHost} answering again`]]);
      expect(await launcher.interrupt()).toBe(0);
    } finally {
      launcher.kill();
      await sandbox?.close();
      await removeDataDir(dataDir);
    }
  }, 200_000);
});

describe('npm start on a terminal', () => {
  it("logs readable lines, without Nest's line per module and route, and stops with Ctrl-C", async () => {
    const name = `${testRunId()}_terminal`;
    const dataDir = await scratchDataDir();
    const sandbox = await startSandbox({ port: 0 });
    const launcher = LauncherProcess.startOnTerminal('start', { ...isolatedLauncherSettings(name, dataDir), REGISTER_URL: sandbox.url });
    try {
      await launcher.waitFor(STARTED, 150_000);
      const processLines = launcher.log.split('\n').filter((line) => /^(api|worker-1) +\| /.test(line));
      expect(processLines.filter((line) => line.includes('{"level"'))).toEqual([]);
      expect(processLines).toContainEqual(expect.stringMatching(/^api +\| \[\d\d:\d\d:\d\d\.\d{3}\] INFO: \(Main\) API listening on 127\.0\.0\.1:\d+ /));
      expect(processLines.filter((line) => /InstanceLoader|RouterExplorer|RoutesResolver/.test(line))).toEqual([]);
      // The launcher stops everything; npm, which the terminal interrupts too, may report it as 130 (128 + SIGINT).
      expect([0, 130]).toContain(await launcher.typeCtrlC());
      expect(launcher.log).toMatch(/\nlvs +\| Stopped\n/);
    } finally {
      launcher.kill();
      await sandbox.close();
      await removeDataDir(dataDir);
    }
  }, 200_000);
});

describe('npm start without PostgreSQL and Redis at the default addresses', () => {
  let dataDir: string;
  let postgresPort: number;
  let redisPort: number;

  beforeAll(async () => {
    dataDir = await scratchDataDir();
    postgresPort = await freePort();
    redisPort = await freePort();
  });
  afterAll(() => removeDataDir(dataDir));

  const startLauncher = () =>
    LauncherProcess.start('start', {
      LOCAL_POSTGRES_PORT: String(postgresPort),
      LOCAL_REDIS_PORT: String(redisPort),
      LVS_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      WORKER_HTTP_PORT: '0',
      WORKERS: '2',
    });

  it('starts an embedded PostgreSQL and a local redis-server, serves, keeps the data, and stops clean', async () => {
    const launcher = startLauncher();
    try {
      await launcher.waitFor(STARTED, 150_000);
      expect(launcher.log).toContain(
        `No PostgreSQL on 127.0.0.1:${postgresPort}: starting the embedded PostgreSQL with its data in ${join(dataDir, 'postgres')}`,
      );
      expect(launcher.log).toContain(`No Redis on 127.0.0.1:${redisPort}: starting redis-server with its data in ${join(dataDir, 'redis')}`);
      const apiUrl = launcher.log.match(/^API +(http:\/\/\S+)$/m)![1];
      expect(launcher.log).toContain(`\nSwagger UI   ${apiUrl}/docs\n`);

      const ready = await fetch(`${apiUrl}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ info: { database: { status: 'up' }, workers: { live: 2 } } });

      const created = JSON.parse(
        execFileSync(process.execPath, [join(__dirname, '../../dist/src/cli/admin.cli.js'), 'create', '--name', 'launcher', '--quota', '5'], {
          env: { PATH: process.env.PATH, DATABASE_URL: `postgres://postgres@127.0.0.1:${postgresPort}/licence_verification` },
          encoding: 'utf8',
        }),
      ) as { key: string };
      const usage = await fetch(`${apiUrl}/v1/quota/usage`, { headers: { 'x-api-key': created.key } });
      expect(usage.status).toBe(200);
      expect(await usage.json()).toMatchObject({ used: 0, quota: 5, remaining: 5 });

      const pids = launcher.pids();
      expect([...pids.keys()].sort()).toEqual(['api', 'postgres', 'redis', 'worker-1', 'worker-2']);
      expect(await launcher.interrupt()).toBe(0);
      await expectAllGone(pids, [Number(new URL(apiUrl).port), postgresPort, redisPort]);

      // The data stays: a second start finds the cluster and the key.
      const again = startLauncher();
      try {
        await again.waitFor(STARTED, 150_000);
        expect(again.log).not.toContain('Creating an embedded PostgreSQL cluster');
        const secondUrl = again.log.match(/^API +(http:\/\/\S+)$/m)![1];
        expect((await fetch(`${secondUrl}/v1/quota/usage`, { headers: { 'x-api-key': created.key } })).status).toBe(200);
        expect(await again.interrupt()).toBe(0);
      } finally {
        again.kill();
      }
    } finally {
      launcher.kill();
    }
  }, 300_000);

  it('says how to get Redis and exits non-zero when there is no redis-server', async () => {
    const launcher = LauncherProcess.startEntry({
      PATH: `/nonexistent-${randomBytes(4).toString('hex')}`,
      PORT: '0',
      WORKER_HTTP_PORT: '0',
      LOCAL_REDIS_PORT: String(redisPort),
      LVS_DATA_DIR: dataDir,
    });
    expect(await launcher.exited).toBe(1);
    expect(launcher.log).toContain('there is no redis-server on this machine');
    expect(launcher.log).toContain('docker compose up -d redis');
  });
});
