import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/auth/api-key-secret';
import { ApiProcess } from '../support/api-process';
import { FormClient } from '../support/console-client';
import { quotaUsage, request, TestResponse, verify } from '../support/http';
import { runAdminCli } from '../support/admin-cli';
import { PrivatePostgres } from '../support/private-postgres';
import { startTestApp, TestApp } from '../support/test-app';
import { TEST_REDIS_URL, testRunId } from '../support/test-run';
import { unknownNumber, until } from '../support/until';

const RATE_LIMITED = { code: 'RATE_LIMITED', message: 'Too many requests; retry after the time in Retry-After' };
const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid or missing API key' };
const RATE_LIMIT_FIELD = /^"user";r=\d+;t=\d+$/;
const ANSWERED = [200, 202, 404, 409];

const listWatchlist = (baseUrl: string, key: string) => request(baseUrl, 'GET', '/v1/watchlist', { headers: { 'x-api-key': key } });

/**
 * Two real API processes on one Redis, with a default bucket of 1 request a second and a burst of 5: so
 * slow that the refill during a test is bounded by its duration in whole seconds, which the counts allow for.
 */
describe('per-user rate limit, shared by two API processes', () => {
  let t: TestApp;
  let apis: ApiProcess[];

  beforeAll(async () => {
    t = await startTestApp({ withWorker: true });
    // The first burst reaches processes just started: one user's ten new charges on each take turns on its quota
    // row, and the last could pass the 800 ms default deadline and answer 503 (seen on a slow 2-core machine, 2 of 20).
    // This suite checks the rate limit; the deadline has its own resilience test.
    const env = {
      ...t.env,
      RATE_LIMIT_PER_SECOND: '1',
      RATE_LIMIT_BURST: '5',
      AUTH_CACHE_TTL_SECONDS: '3600',
      LOG_LEVEL: 'log',
    };
    apis = await Promise.all([ApiProcess.start(env), ApiProcess.start(env)]);
  });
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
    await t.close();
  });

  async function createUser(...options: string[]): Promise<{ key: string; userId: string }> {
    const created = await runAdminCli(t.env, 'create', '--name', 'rate limit', ...options);
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    return JSON.parse(created.stdout);
  }

  async function setRateLimit(userId: string, rate: string): Promise<void> {
    const set = await runAdminCli(t.env, 'set-rate-limit', userId, rate);
    expect(set.stderr).toBe('');
    expect(set.status).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ userId, rateLimitPerSecond: rate === 'default' ? null : Number(rate) });
  }

  /** Sends `count` requests at once, alternating between the two processes; times the whole burst. */
  async function burst(count: number, send: (baseUrl: string, index: number) => Promise<TestResponse>) {
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: count }, (_, index) => send(apis[index % 2].baseUrl, index)));
    return { answers, elapsedMs: Date.now() - started };
  }

  async function lookupJobNumbers(): Promise<string[]> {
    const queue = new Queue('register-lookup', { connection: { url: t.env.REDIS_URL }, prefix: `${t.redisPrefix}:bull` });
    try {
      const jobs = await queue.getJobs(['waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed']);
      return jobs.map((job) => (job.data as { licenceNumber: string }).licenceNumber);
    } finally {
      await queue.close();
    }
  }

  it('gives a user over its rate 429 with Retry-After and RateLimit on both processes, uncharged; another user is untouched', async () => {
    const userA = await createUser('--quota', '100');
    const userB = await createUser();
    await setRateLimit(userB.userId, '1000'); // burst 2000
    const numbersA = Array.from({ length: 20 }, (_, index) => unknownNumber(23, index));
    const numbersB = Array.from({ length: 20 }, (_, index) => unknownNumber(24, index));

    const [a, b] = await Promise.all([
      burst(20, (baseUrl, index) => verify(baseUrl, userA.key, numbersA[index])),
      burst(20, (baseUrl, index) => verify(baseUrl, userB.key, numbersB[index])),
    ]);

    // One bucket for both processes: 5 at once, plus at most one refilled token per second the burst took.
    // Two buckets would have admitted 10.
    expect(a.elapsedMs).toBeLessThan(5000);
    const admitted = a.answers.flatMap((answer, index) => (ANSWERED.includes(answer.status) ? [numbersA[index]] : []));
    const limited = a.answers.flatMap((answer, index) => (answer.status === 429 ? [numbersA[index]] : []));
    expect(a.answers.filter((answer) => !ANSWERED.includes(answer.status) && answer.status !== 429).map((answer) => answer.body)).toEqual([]);
    expect(admitted.length).toBeGreaterThanOrEqual(5);
    expect(admitted.length).toBeLessThanOrEqual(5 + Math.floor(a.elapsedMs / 1000));
    for (const answer of a.answers) {
      expect(answer.headers.get('ratelimit-policy')).toBe('"user";q=5;w=5');
      expect(answer.headers.get('ratelimit')).toMatch(RATE_LIMIT_FIELD);
      if (answer.status !== 429) continue;
      expect(answer.body).toEqual(RATE_LIMITED);
      // one token a second: the next one is at most a second away
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.headers.get('ratelimit')).toBe('"user";r=0;t=1');
    }
    for (const answer of b.answers) {
      expect(ANSWERED).toContain(answer.status);
      expect(answer.headers.get('ratelimit-policy')).toBe('"user";q=2000;w=2');
    }

    // Only admitted verifications were charged and looked up; the refused ones left nothing.
    const charges = await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userA.userId]);
    expect(charges.rows.map((row) => row.licence_number)).toEqual([...admitted].sort());
    const usage = await t.db.query('SELECT used FROM quota_usage WHERE user_id = $1', [userA.userId]);
    expect(usage.rows).toEqual([{ used: admitted.length }]);
    const looked = new Set(await lookupJobNumbers());
    expect(limited.filter((number) => looked.has(number))).toEqual([]);
    expect(admitted.every((number) => looked.has(number))).toBe(true);

    // Quota usage is exempt: never 429 and no RateLimit field, even with the bucket empty.
    const usages = await burst(10, (baseUrl) => quotaUsage(baseUrl, userA.key));
    for (const answer of usages.answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ used: admitted.length, quota: 100 });
      expect(answer.headers.get('ratelimit')).toBeNull();
    }
  });

  it("takes the console's requests from the same bucket as the API: past the rate a page is 429 in the console's layout with Retry-After", async () => {
    const { key, userId } = await createUser();
    await setRateLimit(userId, '1'); // a bucket of 2, one token back a second
    // The console on one process, the API on the other: the bucket is the user's, wherever its requests go.
    const staff = new FormClient(apis[1].baseUrl);
    expect((await staff.signIn(key)).status).toBe(303); // sign-in takes no token: it has its own limit
    const _csrf = await staff.tokenOf('/console/watchlist');
    await sleep(2100); // the bucket is full again
    const numbers = Array.from({ length: 3 }, (_, index) => unknownNumber(25, index));
    // Six API requests, three console pages and three console forms (each watching its own number), interleaved.
    const plan = numbers.flatMap((licenceNumber) => [
      { kind: 'api' as const },
      { kind: 'page' as const },
      { kind: 'api' as const },
      { kind: 'form' as const, licenceNumber },
    ]);
    const sendOne = async (step: (typeof plan)[number]) => {
      if (step.kind === 'api') {
        const answer = await listWatchlist(apis[0].baseUrl, key);
        return { ...step, status: answer.status, headers: answer.headers, text: answer.text };
      }
      const answer =
        step.kind === 'page'
          ? await staff.send('GET', '/console/overview')
          : await staff.send('POST', '/console/watchlist', { _csrf, licenceNumber: step.licenceNumber });
      return { ...step, status: answer.status, headers: answer.headers, text: await answer.text() };
    };
    const started = Date.now();
    const answers = await Promise.all(plan.map(sendOne));
    const elapsedMs = Date.now() - started;

    // One bucket: 2 at once, plus at most one token a second the burst took; two buckets would have let 4 through.
    // Under 4 s at most 5 are admitted, so neither the API's six requests nor the console's six all went through.
    expect(elapsedMs).toBeLessThan(4000);
    const admitted = answers.filter((answer) => answer.status !== 429);
    expect(admitted.length).toBeGreaterThanOrEqual(2);
    expect(admitted.length).toBeLessThanOrEqual(2 + Math.floor(elapsedMs / 1000));
    const expected = { api: 200, page: 200, form: 303 };
    for (const answer of admitted) expect([answer.kind, answer.status]).toEqual([answer.kind, expected[answer.kind]]);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.some((answer) => answer.kind === 'api')).toBe(true);
    expect(refused.some((answer) => answer.kind !== 'api')).toBe(true);
    for (const answer of answers) expect(answer.headers.get('ratelimit-policy')).toBe('"user";q=2;w=2');
    for (const answer of refused) {
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.headers.get('ratelimit')).toBe('"user";r=0;t=1');
      if (answer.kind === 'api') {
        expect(JSON.parse(answer.text)).toEqual(RATE_LIMITED);
        continue;
      }
      // A page in the console's layout, signed in, saying in words when to try again.
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.text).toContain('<title>Too many requests · Licence Verification console</title>');
      expect(answer.text).toContain('<nav class="pages" aria-label="Console pages">');
      expect(answer.text).toContain('<p>Try again in 1 second: reload the page, or send the form again.</p>');
    }

    // A refused form did nothing: only the admitted ones watched and charged their numbers.
    const watchedByForm = answers.flatMap((answer) => (answer.kind === 'form' && answer.status === 303 ? [answer.licenceNumber] : []));
    const watched = await t.db.query('SELECT licence_number FROM watch_entries WHERE user_id = $1 ORDER BY 1', [userId]);
    expect(watched.rows.map((row) => row.licence_number)).toEqual([...watchedByForm].sort());
    const charges = await t.db.query('SELECT licence_number FROM quota_charges WHERE user_id = $1 ORDER BY 1', [userId]);
    expect(charges.rows.map((row) => row.licence_number)).toEqual([...watchedByForm].sort());

    // Signing in and the console's stylesheet take no token, however empty the bucket.
    expect((await new FormClient(apis[0].baseUrl).signIn(key)).status).toBe(303);
    const stylesheet = await staff.send('GET', '/console/assets/console.css');
    expect([stylesheet.status, stylesheet.headers.get('ratelimit')]).toEqual([200, null]);
  });

  it('puts the RateLimit fields on every answer after authentication, errors included, and none on 401', async () => {
    const { key } = await createUser();
    const invalid = await request(apis[0].baseUrl, 'POST', '/v1/licences/verify', { headers: { 'x-api-key': key }, body: { licenceNumber: '12' } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('ratelimit')).toBe('"user";r=4;t=1');
    const missing = await request(apis[1].baseUrl, 'GET', '/v1/batches/0b7d8f5e-7a3c-4d5e-9f10-2a3b4c5d6e7f', { headers: { 'x-api-key': key } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit')).toMatch(/^"user";r=3;t=1$/);
    const unauthorized = await listWatchlist(apis[0].baseUrl, `lvs_${randomBytes(16).toString('hex')}`);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toEqual(UNAUTHORIZED);
    expect(unauthorized.headers.get('ratelimit')).toBeNull();
  });

  it('remembers an unknown key for 5 s at most: one written to the database unannounced works after that', async () => {
    const { userId } = await createUser();
    const plainKey = generateApiKey();
    for (const api of apis) expect((await listWatchlist(api.baseUrl, plainKey)).status).toBe(401);
    // Straight into the database: no announcement reaches the API processes, so only the TTL lets the key in.
    await t.db.query(`INSERT INTO api_keys (user_id, name, key_hash, key_prefix) VALUES ($1, 'unannounced', $2, $3)`, [
      userId,
      hashApiKey(plainKey),
      displayPrefix(plainKey),
    ]);
    const written = Date.now();
    for (const api of apis) expect((await listWatchlist(api.baseUrl, plainKey)).status).toBe(401);
    for (const api of apis)
      await until(
        async () => (await listWatchlist(api.baseUrl, plainKey)).status,
        (status) => status === 200,
        8000,
      );
    expect(Date.now() - written).toBeLessThan(5000 + 1000);
  });

  it('applies `admin set-rate-limit` (burst twice the rate) on both processes at once, and `default` restores the defaults', async () => {
    const { key, userId } = await createUser();
    for (const api of apis) expect((await listWatchlist(api.baseUrl, key)).headers.get('ratelimit-policy')).toBe('"user";q=5;w=5');

    await setRateLimit(userId, '2');
    const raised = await burst(12, (baseUrl) => listWatchlist(baseUrl, key));
    expect(raised.elapsedMs).toBeLessThan(2000);
    const admitted = raised.answers.filter((answer) => answer.status === 200).length;
    // The bucket of 4 still owes the 2 requests above, less what 2 a second have paid back since.
    expect(raised.answers.filter((answer) => answer.status === 429).length).toBe(12 - admitted);
    expect(admitted).toBeGreaterThanOrEqual(2);
    expect(admitted).toBeLessThanOrEqual(4 + 2 * Math.ceil(raised.elapsedMs / 1000));
    for (const answer of raised.answers) expect(answer.headers.get('ratelimit-policy')).toBe('"user";q=4;w=2');

    await setRateLimit(userId, 'default');
    for (const api of apis) expect((await listWatchlist(api.baseUrl, key)).headers.get('ratelimit-policy')).toBe('"user";q=5;w=5');
  });
});

/**
 * Failed authentications from one address: beyond AUTH_FAILURES_PER_MINUTE they are refused before any
 * query. PostgreSQL is frozen for the 61st: an answer that needed it could not come.
 */
describe('failed authentications per client address', () => {
  let postgres: PrivatePostgres;
  let api: ApiProcess;

  beforeAll(async () => {
    postgres = await PrivatePostgres.start();
    api = await ApiProcess.start({
      DATABASE_URL: postgres.url('lvs_auth_failures'), // created and migrated by the API at start-up
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `${testRunId()}_authfail_${randomBytes(4).toString('hex')}`,
      REGISTER_URL: 'http://127.0.0.1:9',
      AUTH_FAILURES_PER_MINUTE: '60',
      TRUST_PROXY: 'loopback', // the test stands in for a proxy, to name another address below
      LOG_LEVEL: 'log',
    });
  });
  afterAll(async () => {
    await api?.stop();
    await postgres?.destroy();
  });

  const madeUpKey = () => `lvs_${randomBytes(16).toString('hex')}`;

  it('answers the 61st failure within a minute 429 RATE_LIMITED with Retry-After, without asking PostgreSQL', async () => {
    for (let attempt = 1; attempt <= 60; attempt++) {
      const answer = await listWatchlist(api.baseUrl, madeUpKey());
      expect([attempt, answer.status, answer.body]).toEqual([attempt, 401, UNAUTHORIZED]);
    }
    postgres.freeze();
    try {
      const started = Date.now();
      for (const key of [madeUpKey(), madeUpKey()]) {
        const answer = await listWatchlist(api.baseUrl, key);
        expect(answer.status).toBe(429);
        expect(answer.body).toEqual(RATE_LIMITED);
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(60);
        expect(answer.headers.get('ratelimit')).toBeNull();
      }
      // quota usage has no 429 in its interface: the address gets 401 there, just as unasked
      const usage = await quotaUsage(api.baseUrl, madeUpKey());
      expect([usage.status, usage.body]).toEqual([401, UNAUTHORIZED]);
      // PostgreSQL's connect timeout is 1 s: an answer that had waited for it would come later
      expect(Date.now() - started).toBeLessThan(1000);
      // another address (behind the trusted proxy) is not refused: its key is looked up, which now hangs
      const other = await fetch(`${api.baseUrl}/v1/watchlist`, {
        headers: { 'x-api-key': madeUpKey(), 'x-forwarded-for': '198.51.100.7' },
        signal: AbortSignal.timeout(300),
      }).then(
        (response) => response.status,
        () => 'no answer yet',
      );
      expect(other).toBe('no answer yet');
    } finally {
      postgres.thaw();
    }
  });
});

/**
 * By default (TRUST_PROXY unset) no peer is a proxy, not even loopback: the X-Forwarded-For a caller sends names no
 * one, so a caller cannot spread its failures over made-up addresses. Behind a named proxy, IPv6 clients count by /64.
 */
describe('failed authentications and X-Forwarded-For', () => {
  let t: TestApp;
  const started: ApiProcess[] = [];

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await Promise.all(started.map((api) => api.stop()));
    await t.close();
  });

  const startApi = async (env: Record<string, string>) => {
    const api = await ApiProcess.start({ ...t.env, AUTH_FAILURES_PER_MINUTE: '60', LOG_LEVEL: 'log', ...env });
    started.push(api);
    return api;
  };
  const send = (api: ApiProcess, forwardedFor: string) =>
    request(api.baseUrl, 'GET', '/v1/watchlist', { headers: { 'x-api-key': `lvs_${randomBytes(16).toString('hex')}`, 'x-forwarded-for': forwardedFor } });

  it('ignores a spoofed X-Forwarded-For by default: every failure counts against the connection address', async () => {
    const api = await startApi({});
    for (let attempt = 1; attempt <= 60; attempt++) expect([attempt, (await send(api, `198.51.100.${attempt}`)).status]).toEqual([attempt, 401]);
    const refused = await send(api, '198.51.100.61');
    expect([refused.status, refused.body]).toEqual([429, RATE_LIMITED]);
    // One counter, the connection's: none for the addresses the header named.
    expect(await t.redis.keys(`${t.redisPrefix}:auth-failures:*`)).toEqual([`${t.redisPrefix}:auth-failures:{a127.0.0.1}`]);
    // Every attempt is counted before it is judged, so simultaneous attempts cannot pass together; the refused one
    // gives its place back, as it reached no lookup.
    expect(Number(await t.redis.get(`${t.redisPrefix}:auth-failures:{a127.0.0.1}`))).toBe(60);
  });

  it('counts one attempt for a good key that many requests bring at once, so that a busy partner is never refused', async () => {
    const api = await startApi({ TRUST_PROXY: '127.0.0.1', AUTH_FAILURES_PER_MINUTE: '5' });
    const { key } = await t.createKey();
    const partner = { 'x-api-key': key, 'x-forwarded-for': '203.0.113.9' };
    // 40 at once, before this process knows the key: each would count an attempt before the first was forgiven.
    const answers = await Promise.all(Array.from({ length: 40 }, () => request(api.baseUrl, 'GET', '/v1/watchlist', { headers: partner })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    // The limit itself is whole: five failures from that address, then 429.
    const madeUp = { 'x-api-key': `lvs_${randomBytes(16).toString('hex')}`, 'x-forwarded-for': '203.0.113.9' };
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect([attempt, (await request(api.baseUrl, 'GET', '/v1/watchlist', { headers: madeUp })).status]).toEqual([attempt, 401]);
    }
    const refused = await request(api.baseUrl, 'GET', '/v1/watchlist', { headers: madeUp });
    expect([refused.status, refused.body]).toEqual([429, RATE_LIMITED]);
  });

  it('refuses only the new keys past the limit in a burst from one address, and blocks the address no longer', async () => {
    const api = await startApi({ TRUST_PROXY: '127.0.0.1', AUTH_FAILURES_PER_MINUTE: '5' });
    const partners = await Promise.all(Array.from({ length: 30 }, () => t.createKey()));
    const from = (key: string) => ({ headers: { 'x-api-key': key, 'x-forwarded-for': '203.0.113.10' } });
    // A proxy in front of 30 partners, just after the API started: 30 keys it has never seen, at once. Past 5 in
    // flight, the address may be refused; none of it is counted as a failure.
    const burst = await Promise.all(partners.map(({ key }) => request(api.baseUrl, 'GET', '/v1/watchlist', from(key))));
    const statuses = burst.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(5);
    expect(Number(await t.redis.get(`${t.redisPrefix}:auth-failures:{a203.0.113.10}`))).toBe(0);
    // Each partner refused in the burst is let in at once when it tries again, one after the other.
    const refused = partners.filter((_, index) => statuses[index] === 429);
    for (const { key } of refused) expect([key, (await request(api.baseUrl, 'GET', '/v1/watchlist', from(key))).status]).toEqual([key, 200]);
  });

  it('behind a named proxy, counts an IPv6 client by its /64: a neighbouring /64 is not refused', async () => {
    const api = await startApi({ TRUST_PROXY: '127.0.0.1' });
    for (let attempt = 1; attempt <= 60; attempt++) {
      expect([attempt, (await send(api, `2001:db8:aa:1::${attempt.toString(16)}`)).status]).toEqual([attempt, 401]);
    }
    const sameNetwork = await send(api, '2001:db8:aa:1:ffff:ffff:ffff:ffff');
    expect([sameNetwork.status, sameNetwork.body]).toEqual([429, RATE_LIMITED]);
    expect((await send(api, '2001:db8:aa:2::1')).status).toBe(401);
    expect((await send(api, '198.51.100.200')).status).toBe(401);
    expect((await t.redis.keys(`${t.redisPrefix}:auth-failures:{a2001:db8:*`)).sort()).toEqual([
      `${t.redisPrefix}:auth-failures:{a2001:db8:aa:1::/64}`,
      `${t.redisPrefix}:auth-failures:{a2001:db8:aa:2::/64}`,
    ]);
  });
});
