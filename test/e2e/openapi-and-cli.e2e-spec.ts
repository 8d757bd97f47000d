import SwaggerParser from '@apidevtools/swagger-parser';
import { request } from '../support/http';
import { runKeysCli } from '../support/keys-cli';
import { startTestApp, TestApp } from '../support/test-app';

describe('OpenAPI document and the key command', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('GET /docs', () => {
    it('serves Swagger UI', async () => {
      const response = await request(t.baseUrl, 'GET', '/docs');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.text).toContain('swagger-ui');
    });

    it('serves an OpenAPI 3 document that a validator accepts, with every status of the contract', async () => {
      const response = await request(t.baseUrl, 'GET', '/docs/openapi.json');
      expect(response.status).toBe(200);
      const document = response.body as Record<string, any>;
      await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
      expect(document.openapi).toMatch(/^3\./);

      const verifyOperation = document.paths['/v1/licences/verify'].post;
      expect(Object.keys(verifyOperation.responses).sort()).toEqual(
        ['200', '202', '400', '401', '404', '409', '429', '500', '502', '503'].sort(),
      );
      expect(verifyOperation.responses['202'].headers).toHaveProperty('Retry-After');
      expect(verifyOperation.responses['429'].content['application/json'].example).toEqual({
        code: 'QUOTA_EXCEEDED',
        message: 'Monthly verification quota exceeded; upgrade the plan to continue',
      });
      expect(verifyOperation.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]),
      );
      const quotaOperation = document.paths['/v1/quota/usage'].get;
      expect(Object.keys(quotaOperation.responses).sort()).toEqual(['200', '401', '500']);
      expect(document.components.securitySchemes['api-key']).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
      expect(document.components.schemas.ErrorBody.required).toEqual(['code', 'message']);
      expect(document.components.schemas.VerifyLicenceDto.properties.licenceNumber.pattern).toBe('^[0-9]{16}$');
    });
  });

  describe('npm run keys', () => {
    const keys = (...args: string[]) => runKeysCli(t.env, ...args);

    it('creates a key that works at once, lists it without the secret, sets the quota and revokes it', async () => {
      const created = keys('create', '--name', 'Acme Security', '--quota', '3');
      expect(created.status).toBe(0);
      const { key, keyId, userId, quota } = JSON.parse(created.stdout);
      expect(key).toMatch(/^lvs_[A-Za-z0-9_-]{43}$/);
      expect(quota).toBe(3);
      const usage = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': key } });
      expect(usage.body).toMatchObject({ used: 0, quota: 3, remaining: 3 });

      const listed = keys('list');
      expect(listed.status).toBe(0);
      expect(listed.stdout).not.toContain(key);
      expect(JSON.parse(listed.stdout)).toEqual(
        expect.arrayContaining([expect.objectContaining({ keyId, userId, name: 'Acme Security', quota: 3, revokedAt: null })]),
      );

      expect(keys('set-quota', userId, 'unlimited').status).toBe(0);
      const unlimited = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': key } });
      expect(unlimited.body).toMatchObject({ quota: null, remaining: null });

      const second = JSON.parse(keys('create', '--name', 'second', '--user', userId).stdout);
      expect(second.userId).toBe(userId);

      expect(keys('revoke', keyId).status).toBe(0);
      const revoked = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': key } });
      expect(revoked.status).toBe(401);
      const other = await request(t.baseUrl, 'GET', '/v1/quota/usage', { headers: { 'x-api-key': second.key } });
      expect(other.status).toBe(200);
    });

    it('creates a key with an expiry', () => {
      const created = keys('create', '--name', 'temp', '--expires-at', '2030-01-01T00:00:00Z');
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
      [['create', '--name', 'x', '--user', '00000000-0000-4000-8000-000000000000'], 'No user'],
      [['frobnicate'], 'Unknown command "frobnicate"'],
    ])('refuses %j with a clear message and exit code 2', (args, message) => {
      const result = keys(...args);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stdout).toBe('');
    });
  });
});
