import { RunningSandbox, startSandbox } from '@lvs/register-sandbox';
import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { Client } from 'pg';
import { runAdminCli } from '../support/admin-cli';
import {
  commandAfter,
  isolatedLauncherSettings,
  LauncherProcess,
  parseCurl,
  removeDataDir,
  runInBash,
  scratchDataDir,
  STARTED,
} from '../support/launcher-process';
import { SandboxAdmin } from '../support/sandbox-admin';
import { databaseUrl, testRunId } from '../support/test-run';

// The newcomer's path: `npm run demo`, then `npm start` against the real register. A second and a third
// sandbox stand in for that register here; JANE DOE is the demo sandbox's invented FOUND.
const JANE_DOE = SANDBOX_NUMBERS.active;

interface Answer {
  status: number;
  source: string | null;
  body: unknown;
}

async function verify(apiUrl: string, key: string, licenceNumber: string): Promise<Answer> {
  const response = await fetch(`${apiUrl}/v1/licences/verify`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ licenceNumber }),
  });
  return { status: response.status, source: response.headers.get('x-verification-source'), body: await response.json() };
}

async function usage(apiUrl: string, key: string): Promise<unknown> {
  return (await fetch(`${apiUrl}/v1/quota/usage`, { headers: { 'x-api-key': key } })).json();
}

/** Every charge in a database's quota ledger: who paid for which number. */
async function charges(database: string): Promise<{ user_id: string; licence_number: string }[]> {
  const db = new Client({ connectionString: databaseUrl(database) });
  await db.connect();
  try {
    return (await db.query<{ user_id: string; licence_number: string }>('SELECT user_id, licence_number FROM quota_charges ORDER BY charged_at')).rows;
  } finally {
    await db.end();
  }
}

describe('npm run demo, then npm start against another register', () => {
  // One database name and Redis prefix for both, as a newcomer's one environment gives them.
  const name = `${testRunId()}_newcomer`;
  let dataDir: string;
  let demoKey: string;
  let startKey: string;
  let startUserId: string;
  const sandboxes: RunningSandbox[] = [];

  beforeAll(async () => {
    dataDir = await scratchDataDir();
  });
  afterAll(async () => {
    await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
    await removeDataDir(dataDir);
  });

  const environment = (registerUrl?: string): Record<string, string> => ({
    ...isolatedLauncherSettings(name, dataDir),
    ...(registerUrl ? { REGISTER_URL: registerUrl } : {}),
  });

  /** Runs the launcher until `use` is done, then stops it as Ctrl-C does. */
  async function whileRunning(script: 'demo' | 'start', env: Record<string, string>, use: (apiUrl: string, log: string) => Promise<void>): Promise<void> {
    const launcher = LauncherProcess.start(script, env);
    try {
      await launcher.waitFor(STARTED, 150_000);
      await use(launcher.log.match(/^API +(http:\/\/\S+)$/m)![1], launcher.log);
      expect(await launcher.interrupt()).toBe(0);
    } finally {
      launcher.kill();
    }
  }

  async function startSandboxWithout(licenceNumber?: string): Promise<{ sandbox: RunningSandbox; admin: SandboxAdmin }> {
    const sandbox = await startSandbox({ port: 0 });
    sandboxes.push(sandbox);
    const admin = new SandboxAdmin(sandbox.url);
    if (licenceNumber) await admin.changeLicence(licenceNumber, { removed: true });
    return { sandbox, admin };
  }

  it("the demo answers its sandbox's JANE DOE: FOUND", async () => {
    await whileRunning('demo', environment(), async (apiUrl, log) => {
      demoKey = log.match(/^Demo key \(quota 100 per month\): (\S+)$/m)![1];
      const answer = parseCurl((await runInBash(commandAfter(log, '# FOUND (200):'))).stdout);
      expect([answer.status, answer.headers['x-verification-source']]).toEqual([200, 'register']);
      expect(answer.body).toMatchObject({ status: 'FOUND', licence: { licenceNumber: JANE_DOE, firstName: 'JANE', surname: 'DOE' } });
      // Watched too (free: charged this month already), for the next demo to stop monitoring.
      const watched = await fetch(`${apiUrl}/v1/watchlist/${JANE_DOE}`, {
        method: 'PUT',
        headers: { 'x-api-key': demoKey, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(watched.status).toBe(201);
    });
  }, 200_000);

  it("npm start asks its own register, which does not know the number: NOT_FOUND, not the demo's cached FOUND", async () => {
    const { sandbox, admin } = await startSandboxWithout(JANE_DOE);
    await whileRunning('start', environment(sandbox.url), async (apiUrl, log) => {
      expect(log).toContain(`\nRegister     ${sandbox.url}\n`);
      // The demo's key lives in the demo's database only.
      expect(await verify(apiUrl, demoKey, JANE_DOE)).toEqual({
        status: 401,
        source: null,
        body: { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' },
      });
      const created = await runAdminCli({ DATABASE_URL: databaseUrl(name) }, 'create', '--name', 'newcomer', '--quota', '5');
      expect(created.status).toBe(0);
      ({ key: startKey, userId: startUserId } = JSON.parse(created.stdout) as { key: string; userId: string });

      expect(await verify(apiUrl, startKey, JANE_DOE)).toEqual({
        status: 404,
        source: 'register',
        body: {
          status: 'NOT_FOUND',
          message: 'No licence matches the number',
          licence: null,
          checkedAt: expect.any(String),
          verificationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        },
      });
      expect(await admin.requestsFor(JANE_DOE)).toBe(1);
      expect(await usage(apiUrl, startKey)).toMatchObject({ used: 1, quota: 5, remaining: 4 });
      // npm start's ledger holds its own user's charge only; the demo's stayed in the demo's database.
      expect(await charges(name)).toEqual([{ user_id: startUserId, licence_number: JANE_DOE }]);
      expect((await charges(`${name}_demo`)).map((charge) => charge.licence_number)).toEqual([JANE_DOE]);
    });
  }, 200_000);

  it("after REGISTER_URL changes, on the same database and Redis prefix, the previous register's cached answer is not served", async () => {
    const { sandbox, admin } = await startSandboxWithout();
    await whileRunning('start', environment(sandbox.url), async (apiUrl) => {
      const asked = await verify(apiUrl, startKey, JANE_DOE);
      expect([asked.status, asked.source]).toEqual([200, 'register']);
      expect(asked.body).toMatchObject({ status: 'FOUND', licence: { licenceNumber: JANE_DOE, surname: 'DOE' } });
      // This register's own answer is cached as before.
      const repeated = await verify(apiUrl, startKey, JANE_DOE);
      expect([repeated.status, repeated.source, repeated.body]).toEqual([200, 'cache', asked.body]);
      expect(await admin.requestsFor(JANE_DOE)).toBe(1);
      // Charged once for the number this month, whichever register answered.
      expect(await usage(apiUrl, startKey)).toMatchObject({ used: 1, quota: 5, remaining: 4 });
    });
  }, 200_000);

  it("a second demo starts from empty demo data: the first demo's user, key and watched number are gone, npm start's kept", async () => {
    await whileRunning('demo', environment(), async (apiUrl, log) => {
      expect(log).toContain(`\nlvs      | Starting the demo with empty demo data: dropping database ${name}_demo, an earlier demo's users go with it\n`);
      expect(await verify(apiUrl, demoKey, JANE_DOE)).toEqual({
        status: 401,
        source: null,
        body: { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' },
      });
      const db = new Client({ connectionString: databaseUrl(`${name}_demo`) });
      await db.connect();
      try {
        const counts = await db.query('SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM watch_entries) AS watched');
        // The new demo's own user only, with its test side (the demo prints a test key too).
        expect(counts.rows).toEqual([{ users: 2, watched: 0 }]);
      } finally {
        await db.end();
      }
    });
    expect(await charges(name)).toEqual([{ user_id: startUserId, licence_number: JANE_DOE }]);
  }, 200_000);
});
