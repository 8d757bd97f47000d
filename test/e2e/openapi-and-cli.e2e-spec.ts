import SwaggerParser from '@apidevtools/swagger-parser';
import { ADMIN_USAGE } from '../../src/cli/admin-grammar';
import { VALIDATION_MESSAGES } from '../../src/errors/error-codes';
import { EVENT_TYPES } from '../../src/events/event-types';
import { request } from '../support/http';
import { runAdminCli, runCli } from '../support/admin-cli';
import { startTestApp, TestApp } from '../support/test-app';

/** npm's own command, which npm and npx name to what they run (npm test, npx jest): the scripts run as operators run them. */
function npmCli(): string {
  const cli = process.env.npm_execpath;
  if (!cli) throw new Error('npm_execpath is unset: run jest through npm or npx');
  return cli;
}

describe('OpenAPI document and the admin command', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'loopback' } }); // the test stands in for a proxy that forwards the origin
  });
  afterAll(() => t.close());

  describe('GET /docs', () => {
    it('serves Swagger UI under a title that names the service', async () => {
      const response = await request(t.baseUrl, 'GET', '/docs');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.text).toContain('swagger-ui');
      expect(response.text).toContain('<title>Licence Verification Service API</title>');
    });

    it('serves an OpenAPI 3.1 document that a validator accepts, with every status of the contract', async () => {
      const response = await request(t.baseUrl, 'GET', '/docs/openapi.json');
      expect(response.status).toBe(200);
      const document = response.body as Record<string, any>;
      await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
      expect(document.openapi).toBe('3.1.0');

      const verifyOperation = document.paths['/v1/licences/verify'].post;
      expect(Object.keys(verifyOperation.responses).sort()).toEqual(['200', '202', '400', '401', '403', '404', '409', '429', '500', '502', '503'].sort());
      expect(verifyOperation.responses['202'].headers['Retry-After']).toEqual({
        required: true,
        description: 'Seconds to wait before retrying',
        schema: { type: 'integer', minimum: 1 },
      });
      expect(verifyOperation.responses['429'].content['application/json'].examples).toEqual({
        QUOTA_EXCEEDED: {
          summary: 'Monthly verification quota exceeded; upgrade the plan to continue',
          value: { code: 'QUOTA_EXCEEDED', message: 'Monthly verification quota exceeded; upgrade the plan to continue' },
        },
        RATE_LIMITED: {
          summary: 'Too many requests; retry after the time in Retry-After',
          value: { code: 'RATE_LIMITED', message: 'Too many requests; retry after the time in Retry-After' },
        },
      });
      // Retry-After comes with RATE_LIMITED, not with QUOTA_EXCEEDED, which shares the status
      expect(verifyOperation.responses['429'].headers['Retry-After']).toMatchObject({ required: false, schema: { type: 'integer', minimum: 1 } });
      expect(verifyOperation.responses['200'].headers.RateLimit).toMatchObject({ required: true });
      expect(verifyOperation.responses['401'].headers).toBeUndefined();
      // every other operation that takes a key documents 429 RATE_LIMITED with Retry-After
      const watchlistOperation = document.paths['/v1/watchlist'].get;
      expect(watchlistOperation.responses['429'].headers['Retry-After']).toMatchObject({ required: true });
      expect(Object.keys(watchlistOperation.responses['429'].content['application/json'].examples)).toEqual(['RATE_LIMITED']);
      expect(verifyOperation.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]),
      );
      // Every route that takes the key documents it once, with the rule the service checks.
      const keyRule = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' };
      const keyParameters = [
        ['/v1/licences/verify', 'post'],
        ['/v1/licences/verify-holder', 'post'],
        ['/v1/licences/search', 'post'],
        ['/v1/batches', 'post'],
      ].map(([path, method]) => document.paths[path][method].parameters.filter((parameter: { name: string }) => parameter.name === 'Idempotency-Key'));
      expect(keyParameters.map((found) => found.map((parameter: { schema: object }) => parameter.schema))).toEqual(Array(4).fill([keyRule]));
      const takingTheKey = Object.entries<Record<string, any>>(document.paths).flatMap(([path, item]) =>
        Object.entries<any>(item)
          .filter(([, operation]) => (operation.parameters ?? []).some((parameter: { name: string }) => parameter.name === 'Idempotency-Key'))
          .map(([method]) => `${method} ${path}`),
      );
      expect(takingTheKey).toEqual(['post /v1/licences/verify', 'post /v1/licences/verify-holder', 'post /v1/licences/search', 'post /v1/batches']);
      expect(verifyOperation.requestBody.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/VerifyLicenceDto',
      });
      const quotaOperation = document.paths['/v1/quota/usage'].get;
      expect(Object.keys(quotaOperation.responses).sort()).toEqual(['200', '401', '500']);
      expect(document.components.schemas.ErrorBody.required).toEqual(['code', 'message']);
      expect(document.components.schemas.VerifyLicenceDto.properties.licenceNumber).toMatchObject({
        pattern: '^[0-9]{16}$',
        example: '1011001544208079',
      });
    });

    it('ties each verification status to its own HTTP status, schema and example', async () => {
      const document = (await request(t.baseUrl, 'GET', '/docs/openapi.json')).body as Record<string, any>;
      const { responses } = document.paths['/v1/licences/verify'].post;
      const { schemas } = document.components;
      for (const [httpStatus, status, schemaName, licence, checkedAt] of [
        ['200', 'FOUND', 'VerificationFoundDto', { $ref: '#/components/schemas/LicenceDto' }, { type: 'string', format: 'date-time' }],
        ['202', 'PENDING', 'VerificationPendingDto', { type: 'null' }, { type: 'null' }],
        ['404', 'NOT_FOUND', 'VerificationNotFoundDto', { type: 'null' }, { type: 'string', format: 'date-time' }],
        ['409', 'TOO_MANY_RESULTS', 'VerificationTooManyResultsDto', { type: 'null' }, { type: 'string', format: 'date-time' }],
      ] as const) {
        const media = responses[httpStatus].content['application/json'];
        expect(media.schema).toEqual({ $ref: `#/components/schemas/${schemaName}` });
        expect(media.example.status).toBe(status);
        const schema = schemas[schemaName];
        expect(schema.properties.status).toMatchObject({ type: 'string', enum: [status] });
        expect(schema.properties.licence).toMatchObject(licence);
        expect(schema.properties.checkedAt).toMatchObject(checkedAt);
        // A final answer names its verification record; PENDING is no answer yet.
        expect([...schema.required].sort()).toEqual(
          status === 'PENDING' ? ['checkedAt', 'licence', 'message', 'status'] : ['checkedAt', 'licence', 'message', 'status', 'verificationId'],
        );
        expect(Object.keys(responses[httpStatus].headers).sort()).toEqual(
          httpStatus === '202'
            ? ['Idempotency-Key', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'Verification-Mode', 'X-Verification-Source']
            : ['Idempotency-Key', 'RateLimit', 'RateLimit-Policy', 'Verification-Mode', 'X-Verification-Source'],
        );
      }
      expect(responses['202'].content['application/json'].example).toEqual({
        status: 'PENDING',
        message: 'Verification is still in progress; retry with the same Idempotency-Key',
        licence: null,
        checkedAt: null,
      });
      expect(schemas.LicenceDto.required).toEqual(expect.arrayContaining(['statusReason', 'additionalConditions']));
      expect(schemas.QuotaUsageDto.properties.used.type).toBe('integer');
      expect(schemas.QuotaUsageDto.properties.quota.type).toEqual(['integer', 'null']);
      expect(schemas.QuotaUsageDto.properties.remaining.type).toEqual(['integer', 'null']);
    });

    it('gives every error status an example per message the service really sends', async () => {
      const document = (await request(t.baseUrl, 'GET', '/docs/openapi.json')).body as Record<string, any>;
      const badRequest = document.paths['/v1/licences/verify'].post.responses['400'].content['application/json'];
      expect(Object.values(badRequest.examples).map((example: any) => example.value.message)).toEqual(Object.values(VALIDATION_MESSAGES));
    });

    it('describes every operation and every answer, and declares every tag an operation uses', async () => {
      const document = (await request(t.baseUrl, 'GET', '/docs/openapi.json')).body as Record<string, any>;
      const declared = new Set(document.tags.map((tag: { name: string; description?: string }) => tag.description && tag.name));
      const missing: string[] = [];
      for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
        for (const [method, operation] of Object.entries<any>(item)) {
          const name = `${method.toUpperCase()} ${path}`;
          if (!operation.description) missing.push(`${name}: no description`);
          for (const tag of operation.tags ?? []) if (!declared.has(tag)) missing.push(`${name}: tag ${tag} not declared`);
          for (const [status, answer] of Object.entries<any>(operation.responses)) {
            if (!answer.description) missing.push(`${name} ${status}: no description`);
          }
        }
      }
      expect(missing).toEqual([]);
      expect(Object.keys(document.paths).length).toBeGreaterThanOrEqual(15);
    });

    it('describes metadata, tags and both ways of sending the key', async () => {
      const document = (await request(t.baseUrl, 'GET', '/docs/openapi.json')).body as Record<string, any>;
      expect(document.info).toMatchObject({
        title: 'Licence Verification Service',
        contact: { name: 'Licence Verification Service support' },
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      });
      expect(document.tags.map((tag: { name: string }) => tag.name)).toEqual([
        'verification',
        'holders',
        'quota',
        'batches',
        'monitoring',
        'verifications',
        'keys',
        'activity',
        'test',
      ]);
      expect(document.components.securitySchemes).toEqual({
        'api-key': { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The API key' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The same API key as a bearer token' },
      });
      expect(document.security).toEqual([{ 'api-key': [] }, { bearer: [] }]);
      for (const [path, method] of [
        ['/v1/licences/verify', 'post'],
        ['/v1/quota/usage', 'get'],
      ]) {
        const operation = document.paths[path][method];
        expect(operation.description).toEqual(expect.any(String));
        for (const answer of Object.values<{ description: string }>(operation.responses)) {
          expect(answer.description.length).toBeGreaterThan(10);
        }
      }
      expect(document.paths['/v1/licences/verify'].post.operationId).toBe('verifyLicence');
      expect(document.paths['/v1/quota/usage'].get.operationId).toBe('getQuotaUsage');
    });

    it('names every operation with a chosen, unique operationId: none is the framework default Controller_method', async () => {
      const document = (await request(t.baseUrl, 'GET', '/docs/openapi.json')).body as Record<string, any>;
      const operations = [...Object.values(document.paths), ...Object.values(document.webhooks)].flatMap((item: any) => Object.values(item));
      const ids = operations.map((operation: any) => operation.operationId);
      expect(operations).toHaveLength(35 + EVENT_TYPES.length);
      expect(ids.filter((id) => typeof id !== 'string' || !/^[a-z][A-Za-z]+$/.test(id))).toEqual([]);
      expect(ids.filter((id) => /Controller_/.test(id))).toEqual([]);
      expect(new Set(ids).size).toBe(ids.length);
      expect(document.paths['/v1/batches'].post.operationId).toBe('createBatch');
      expect(document.paths['/v1/webhooks/{id}/deliveries/{deliveryId}/retry'].post.operationId).toBe('retryDelivery');
      expect(document.paths['/v1/test/licences/{licenceNumber}'].post.operationId).toBe('simulateLicenceChange');
      expect(document.paths['/v1/test/licences/{licenceNumber}'].delete.operationId).toBe('restoreLicence');
    });

    it('closes every request schema, as the validation pipe refuses unknown fields', async () => {
      const document = (await request(t.baseUrl, 'GET', '/docs/openapi.json')).body as Record<string, any>;
      const schemas = document.components.schemas;
      const open: string[] = [];
      const visit = (schema: any, where: string): void => {
        if (schema?.$ref) return visit(schemas[schema.$ref.split('/').pop()], schema.$ref);
        if (schema?.properties && schema.additionalProperties !== false) open.push(where);
        for (const [name, property] of Object.entries(schema?.properties ?? {})) visit(property, `${where}.${name}`);
        for (const part of [...(schema?.allOf ?? []), ...(schema?.oneOf ?? []), schema?.items]) if (part) visit(part, where);
      };
      const bodies = Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
        Object.entries(item)
          .filter(([, operation]: [string, any]) => operation.requestBody?.content['application/json'])
          .map(([method, operation]: [string, any]) => [`${method} ${path}`, operation.requestBody.content['application/json'].schema]),
      );
      expect(bodies.map(([name]) => name)).toEqual([
        'post /v1/keys',
        'post /v1/licences/verify',
        'post /v1/licences/verify-holder',
        'post /v1/licences/search',
        'post /v1/batches',
        'put /v1/watchlist/{licenceNumber}',
        'post /v1/watchlist:batchAdd',
        'post /v1/webhooks',
        'patch /v1/webhooks/{id}',
        'post /v1/test/licences/{licenceNumber}',
      ]);
      for (const [name, schema] of bodies) visit(schema, name);
      expect(open).toEqual([]);
      // Nested ones too: a roster row and a watched holder.
      expect([schemas.RosterItemDto.additionalProperties, schemas.WatchHolderDto.additionalProperties]).toEqual([false, false]);
    });

    it('describes every event type we send in the webhooks section, with the Standard Webhooks headers and the mode', async () => {
      const document = (await request(t.baseUrl, 'GET', '/docs/openapi.json')).body as Record<string, any>;
      expect(Object.keys(document.webhooks)).toEqual([...EVENT_TYPES]);
      for (const type of EVENT_TYPES) {
        const operation = document.webhooks[type].post;
        expect(operation.parameters.map((parameter: any) => [parameter.name, parameter.in, parameter.required])).toEqual([
          ['webhook-id', 'header', true],
          ['webhook-timestamp', 'header', true],
          ['webhook-signature', 'header', true],
        ]);
        const body = document.components.schemas[operation.requestBody.content['application/json'].schema.$ref.split('/').pop()];
        expect(body.properties.type).toEqual({ const: type, description: 'The event type' });
        expect(body.required).toEqual(['type', 'timestamp', 'data', 'mode']);
        expect(body.properties.mode.enum).toEqual(['live', 'test']);
      }
    });

    it("names the request's own origin as the server, as a proxy forwards it, for partners and not as production", async () => {
      const server = (url: string) => [{ url, description: 'A local or test instance, not production (NODE_ENV is not production)', 'x-internal': false }];
      expect(((await request(t.baseUrl, 'GET', '/docs/openapi.json')).body as any).servers).toEqual(server(t.baseUrl));
      const forwarded = await request(t.baseUrl, 'GET', '/docs/openapi.json', {
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'partners.example.com' },
      });
      expect((forwarded.body as any).servers).toEqual(server('https://partners.example.com'));
    });
  });

  describe('npm run admin', () => {
    const keys = (...args: string[]) => runAdminCli(t.env, ...args);

    it.each(['admin', 'keys'])('runs as `npm run %s`, with one grammar and the usage of admin', async (script) => {
      const refused = await runCli(npmCli(), t.env, 'run', '--silent', script, '--', 'frobnicate');
      expect([refused.status, refused.stdout, refused.stderr]).toEqual([2, '', `Unknown command "frobnicate"\n\n${ADMIN_USAGE}\n`]);
      const created = await runCli(npmCli(), t.env, 'run', '--silent', script, '--', 'create', '--name', `via ${script}`, '--quota', '2');
      expect(created.status).toBe(0);
      const { key } = JSON.parse(created.stdout);
      const usage = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': key } });
      expect(usage.body).toMatchObject({ used: 0, quota: 2, remaining: 2 });
    });

    it('creates a key that works at once, lists it without the secret, sets the quota and revokes it', async () => {
      const created = await keys('create', '--name', 'Acme Security', '--quota', '3');
      expect(created.status).toBe(0);
      const { key, keyId, userId, quota } = JSON.parse(created.stdout);
      expect(key).toMatch(/^lvs_[A-Za-z0-9_-]{43}$/);
      expect(quota).toBe(3);
      const usage = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': key } });
      expect(usage.body).toMatchObject({ used: 0, quota: 3, remaining: 3 });

      const listed = await keys('list');
      expect(listed.status).toBe(0);
      expect(listed.stdout).not.toContain(key);
      expect(JSON.parse(listed.stdout)).toEqual(
        expect.arrayContaining([expect.objectContaining({ keyId, userId, name: 'Acme Security', quota: 3, revokedAt: null })]),
      );

      expect((await keys('set-quota', userId, 'unlimited')).status).toBe(0);
      const unlimited = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': key } });
      expect(unlimited.body).toMatchObject({ quota: null, remaining: null });

      const second = JSON.parse((await keys('create', '--name', 'second', '--user', userId)).stdout);
      expect(second.userId).toBe(userId);

      expect((await keys('revoke', keyId)).status).toBe(0);
      const revoked = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': key } });
      expect(revoked.status).toBe(401);
      const other = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': second.key } });
      expect(other.status).toBe(200);
    });

    it('creates a key with an expiry', async () => {
      const created = await keys('create', '--name', 'temp', '--expires-at', '2030-01-01T00:00:00Z');
      expect(created.status).toBe(0);
      expect(JSON.parse(created.stdout).expiresAt).toBe('2030-01-01T00:00:00.000Z');
    });

    it.each([
      [['create'], '--name is required'],
      [['create', '--name', 'x', '--quota=-1'], 'Quota must be a whole number'],
      [['create', '--name', 'x', '--quota', '-1'], "Option '--quota' argument is ambiguous"],
      [['create', '--name', 'x', '--expires-at', 'soon'], '--expires-at must be an ISO-8601 date'],
      [['revoke', 'not-a-uuid'], 'KEY_ID must be a UUID'],
      [['revoke', '00000000-0000-4000-8000-000000000000'], 'No key 00000000-0000-4000-8000-000000000000'],
      [['set-quota', '00000000-0000-4000-8000-000000000000', '5'], 'No user 00000000-0000-4000-8000-000000000000'],
      [['set-rate-limit', '00000000-0000-4000-8000-000000000000', '5'], 'No user 00000000-0000-4000-8000-000000000000'],
      [['create', '--name', 'x', '--user', '00000000-0000-4000-8000-000000000000'], 'No user'],
      [['frobnicate'], 'Unknown command "frobnicate"'],
    ])('refuses %j with a clear message and exit code 2', async (args, message) => {
      const result = await keys(...args);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stdout).toBe('');
    });
  });
});
