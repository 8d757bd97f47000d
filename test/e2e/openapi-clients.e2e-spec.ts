import { SANDBOX_NUMBERS } from '@lvs/test-register';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { newSigningSecret, signPayload } from '../../src/webhooks/sign-payload';
import { OpenApiContract } from '../support/openapi-contract';
import { request, verify } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '../..');
const CLIENT_EXAMPLE = join(ROOT, 'test/client-example');
const PUBLIC_BASE_URL = 'https://licences.partner-gateway.test/lvs';

/** The openapi-fetch block of docs/clients.md (the others use @lvs/client): the page's example is what gets compiled and run. */
function clientExampleSource(): string {
  const blocks = [...readFileSync(join(ROOT, 'docs/clients.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].filter((block) =>
    block[1].includes("from 'openapi-fetch'"),
  );
  expect(blocks).toHaveLength(1);
  return blocks[0][1];
}

/** A file of a package installed for test/client-example only (openapi-typescript, the TypeScript 5 it supports). */
function clientTool(packagePath: string): string {
  return join(CLIENT_EXAMPLE, 'node_modules', packagePath);
}

describe('the OpenAPI document as partners use it: lint, strict validation, a generated client', () => {
  let t: TestApp;
  let document: Record<string, any>;

  beforeAll(async () => {
    // A short wait, so that the register stand-in's hanging number gives a real 202 soon.
    t = await startTestApp({ withWorker: true, env: { PUBLIC_BASE_URL, VERIFY_TIMEOUT_MS: '1000' } });
    document = (await request(t.baseUrl, 'GET', '/docs/openapi.json')).body as Record<string, any>;
  });
  afterAll(() => t.close());

  it('names PUBLIC_BASE_URL as the server, whatever origin the request came to', async () => {
    const servers = [{ url: PUBLIC_BASE_URL, description: 'A local or test instance, not production (NODE_ENV is not production)', 'x-internal': false }];
    expect(document.servers).toEqual(servers);
    const forwarded = await request(t.baseUrl, 'GET', '/docs/openapi.json', {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'elsewhere.test' },
    });
    expect((forwarded.body as Record<string, unknown>).servers).toEqual(servers);
  });

  it("shows examples that are the service's real answers", async () => {
    const { key } = await t.createKey();
    const { responses } = document.paths['/v1/licences/verify'].post;
    for (const [code, licenceNumber] of [
      ['200', SANDBOX_NUMBERS.active],
      ['404', SANDBOX_NUMBERS.notFound],
      ['409', SANDBOX_NUMBERS.tooMany],
      ['202', SANDBOX_NUMBERS.faultHang],
    ]) {
      const example = responses[code].content['application/json'].example;
      const answer = await verify(t.baseUrl, key, licenceNumber);
      expect([answer.status, answer.body]).toEqual([
        Number(code),
        {
          ...example,
          checkedAt: example.checkedAt === null ? null : expect.any(String),
          // Each answer has its own record; the example shows the form of its id.
          ...(example.verificationId && {
            verificationId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
          }),
        },
      ]);
    }
    const badNumber = await verify(t.baseUrl, key, '123');
    expect(badNumber.body).toEqual(responses['400'].content['application/json'].examples.licenceNumber.value);
  });

  it('passes Redocly lint with the recommended rules: no errors, no warnings', async () => {
    const directory = join(ROOT, 'node_modules/.cache/lvs-openapi-lint');
    mkdirSync(directory, { recursive: true });
    const file = join(directory, `openapi-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(document, null, 2));
    try {
      const { stdout } = await run(
        process.execPath,
        [require.resolve('@redocly/cli/bin/cli.js'), 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
        { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 16 << 20 },
      );
      const report = JSON.parse(stdout);
      expect(report.problems.map((problem: { ruleId: string; message: string }) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
      expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    } finally {
      rmSync(file, { force: true });
    }
  });

  it("is the document npm run lint checks with Spectral, which names production's https server", async () => {
    const directory = join(ROOT, 'node_modules/.cache/lvs-openapi-lint');
    mkdirSync(directory, { recursive: true });
    const file = join(directory, `written-${process.pid}.json`);
    try {
      await run(process.execPath, [join(ROOT, 'dist/src/cli/openapi-document.cli.js'), file]);
      const { servers, ...written } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      expect(servers).toEqual([{ url: 'https://lvs.example.com', description: 'Production', 'x-internal': false }]);
      expect(written).toEqual({ ...document, servers: undefined });
    } finally {
      rmSync(file, { force: true });
    }
  });

  describe('the strict validator that checks every e2e answer', () => {
    let contract: OpenApiContract;
    const headers = (entries: Record<string, string>) => new Headers({ 'content-type': 'application/json; charset=utf-8', ...entries });
    const verifyHeaders = headers({ 'idempotency-key': 'order-1', 'x-verification-source': 'register' });
    const answer = (status: number, body: unknown, answerHeaders = verifyHeaders) => ({
      status,
      headers: answerHeaders,
      text: JSON.stringify(body),
    });
    const notFound = {
      status: 'NOT_FOUND',
      message: 'No licence matches the number',
      licence: null,
      checkedAt: '2026-11-22T10:15:00.000Z',
      verificationId: '5d1c7c4e-8f0a-4c61-9a5e-2b7f0e3d9c11',
    };

    beforeAll(() => {
      contract = new OpenApiContract(document as never);
    });

    it('accepts a real answer', () => {
      expect(contract.problemsOf('POST', '/v1/licences/verify', answer(404, notFound))).toEqual([]);
    });

    it.each([
      ['a licence object on NOT_FOUND', 404, { ...notFound, licence: {} }, verifyHeaders, '/licence must be null'],
      ['a status that belongs to another HTTP status', 404, { ...notFound, status: 'FOUND' }, verifyHeaders, 'must be equal to one of the allowed values'],
      ['a field the document does not list', 404, { ...notFound, extra: 1 }, verifyHeaders, 'must NOT have additional properties'],
      ['a checkedAt that is not a date-time', 404, { ...notFound, checkedAt: 'yesterday' }, verifyHeaders, 'must match format "date-time"'],
      [
        'a final answer without its verificationId',
        404,
        { ...notFound, verificationId: undefined },
        verifyHeaders,
        "must have required property 'verificationId'",
      ],
      ['a missing required header', 404, notFound, headers({ 'idempotency-key': 'k' }), 'header X-Verification-Source is required but missing'],
      ['a header outside its enum', 404, notFound, headers({ 'idempotency-key': 'k', 'x-verification-source': 'disk' }), 'header X-Verification-Source'],
      ['an undocumented status', 418, notFound, verifyHeaders, 'status is not documented'],
      [
        'an undocumented media type',
        404,
        notFound,
        new Headers({ 'content-type': 'text/html', 'idempotency-key': 'k', 'x-verification-source': 'cache' }),
        'content type "text/html" is not documented',
      ],
    ])('rejects %s', (_case, status, body, answerHeaders, problem) => {
      const problems = contract.problemsOf('POST', '/v1/licences/verify', answer(status, body, answerHeaders));
      expect(problems).toEqual([expect.stringContaining(problem)]);
      expect(problems[0]).toMatch(new RegExp(`^POST /v1/licences/verify ${status}: `));
    });

    it('rejects a non-integer quota count and an error body with an unknown code', () => {
      const usage = { period: '2026-11', used: 1.5, quota: null, remaining: null };
      expect(contract.problemsOf('GET', '/v1/quota/usage', answer(200, usage, headers({})))).toEqual([
        expect.stringContaining('body/used must be integer'),
      ]);
      const error = { code: 'TEAPOT', message: 'Invalid or missing API key' };
      expect(contract.problemsOf('GET', '/v1/quota/usage', answer(401, error, headers({})))).toEqual([
        expect.stringContaining('body/code must be equal to one of the allowed values'),
      ]);
    });

    it('leaves routes the document does not describe alone', () => {
      expect(contract.problemsOf('GET', '/health/live', answer(200, { status: 'ok' }, headers({})))).toEqual([]);
      expect(contract.problemsOf('GET', '/v1/licences/verify', answer(404, {}, headers({})))).toEqual([]);
    });

    describe('webhook deliveries, against the webhooks section', () => {
      const eventId = '0b5c1a58-3f5e-4a61-9a63-2b1f3f0c9a11';
      const paused = {
        type: 'watch.paused',
        timestamp: '2026-11-22T10:15:00.000Z',
        data: { licenceNumber: SANDBOX_NUMBERS.active, reference: null, reason: 'QUOTA_EXCEEDED' },
        mode: 'live',
      };
      /** A delivery as the worker sends it: signed by signPayload, during a rotation with two secrets. */
      const delivery = (body: unknown, change: Record<string, string | undefined> = {}) => {
        const raw = JSON.stringify(body);
        const signed = signPayload([newSigningSecret(), newSigningSecret()], eventId, 1_795_000_000, raw);
        const all: Record<string, string | undefined> = { ...signed, 'content-type': 'application/json', ...change };
        return { raw, headers: Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined)) };
      };

      it('accepts a real delivery', () => {
        expect(contract.webhookProblems(delivery(paused))).toEqual([]);
      });

      it.each([
        ['an event type with no webhook', { ...paused, type: 'watch.deleted' }, {}, 'event type "watch.deleted" has no webhook in the document'],
        ['a field the document does not list', { ...paused, data: { ...paused.data, extra: 1 } }, {}, 'must NOT have additional properties'],
        [
          'a reason outside its enum',
          { ...paused, data: { ...paused.data, reason: 'BORED' } },
          {},
          'body/data/reason must be equal to one of the allowed values',
        ],
        ['a mode that is neither live nor test', { ...paused, mode: 'demo' }, {}, 'body/mode must be equal to one of the allowed values'],
        ['a missing signature header', paused, { 'webhook-signature': undefined }, 'header webhook-signature is required but missing'],
        ['a signature of another scheme', paused, { 'webhook-signature': 'v2,abc' }, 'header webhook-signature: data must match pattern'],
        ['a timestamp that is not Unix seconds', paused, { 'webhook-timestamp': 'now' }, 'header webhook-timestamp: data must be integer'],
        ['an undocumented media type', paused, { 'content-type': 'text/plain' }, 'content type "text/plain" is not documented'],
      ])('rejects %s', (_case, body, change, problem) => {
        expect(contract.webhookProblems(delivery(body, change))).toEqual([expect.stringContaining(problem)]);
      });
    });
  });

  it("compiles docs/clients.md's example against types generated from the served document, and runs it", async () => {
    const directory = join(CLIENT_EXAMPLE, 'generated');
    rmSync(directory, { recursive: true, force: true });
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(join(directory, 'verify-licence.ts'), clientExampleSource());

    await run(process.execPath, [clientTool('openapi-typescript/bin/cli.js'), `${t.baseUrl}/docs/openapi.json`, '--output', 'api.d.ts'], {
      cwd: directory,
    });
    const types = readFileSync(join(directory, 'api.d.ts'), 'utf8');
    expect(types).toContain('"/v1/licences/verify"');

    expect(JSON.parse(readFileSync(clientTool('typescript/package.json'), 'utf8')).version).toMatch(/^5\./);
    const compilerErrors = await run(
      process.execPath,
      [clientTool('typescript/bin/tsc'), '--strict', '--module', 'nodenext', '--target', 'es2022', '--types', 'node', 'verify-licence.ts'],
      { cwd: directory },
    ).then(
      () => '',
      (failure: { stdout: string }) => failure.stdout,
    );
    expect(compilerErrors).toBe('');

    const { key } = await t.createKey({ quota: 10 });
    const { stdout } = await run(process.execPath, ['verify-licence.js', '1011001544208079', '1888000000000000', '1999000000000000', '123'], {
      cwd: directory,
      env: { PATH: process.env.PATH ?? '', LVS_BASE_URL: t.baseUrl, LVS_API_KEY: key },
    });
    expect(stdout.split('\n')).toEqual([
      '1011001544208079 FOUND JANE DOE, Active, expires 2027-06-06',
      '1888000000000000 NOT_FOUND: No licence matches the number',
      '1999000000000000 TOO_MANY_RESULTS: Several licences match the number; the register data needs checking',
      '123 failed: 400 VALIDATION_ERROR: Licence number must be 16 digits',
      expect.stringMatching(/^quota \d{4}-\d{2}: 3 used, 7 remaining$/),
      '',
    ]);
  }, 120_000);
});
