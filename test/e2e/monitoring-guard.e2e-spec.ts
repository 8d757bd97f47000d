import SwaggerParser from '@apidevtools/swagger-parser';
import { request, TestResponse } from '../support/http';
import { BLOCKED_BY_NAME, BLOCKED_IPV6_URLS } from '../support/ssrf-targets';
import { StubDns } from '../support/stub-dns';
import { startTestApp, TestApp } from '../support/test-app';

// Default settings: WEBHOOK_ALLOW_PRIVATE_URLS is off. Names are resolved by a stub DNS server on loopback
// (WEBHOOK_DNS_SERVERS), which knows BLOCKED_BY_NAME and answers any other name NXDOMAIN.
describe('monitoring: the SSRF guard on webhook URLs, and the OpenAPI document', () => {
  let t: TestApp;
  let key: string;
  let dns: StubDns;

  beforeAll(async () => {
    dns = await StubDns.start(BLOCKED_BY_NAME);
    t = await startTestApp({ env: { WEBHOOK_DNS_SERVERS: dns.server } });
    key = (await t.createKey()).key;
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  const create = (body: object): Promise<TestResponse> => request(t.baseUrl, 'POST', '/v1/webhooks', { headers: { 'x-api-key': key }, body });

  it.each([
    'http://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://127.0.0.1:8443/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/hook',
    'https://localhost/hook',
    'http://hooks.partner.example/hook',
    ...BLOCKED_IPV6_URLS,
    // names that resolve there now
    ...Object.keys(BLOCKED_BY_NAME).map((name) => `https://${name}/hook`),
  ])('refuses %s', async (url) => {
    const response = await create({ url });
    expect([response.status, response.body]).toEqual([
      400,
      {
        code: 'VALIDATION_ERROR',
        message: 'url must be an https URL whose host is not a private, loopback, link-local or metadata address',
      },
    ]);
  });

  it('resolves a name when the endpoint is added, and accepts one that does not resolve yet (deliveries check it again)', async () => {
    const asked = dns.questions.length;
    expect((await create({ url: 'https://nat64.hooks.test/hook' })).status).toBe(400);
    expect(dns.questions.slice(asked)).toEqual(expect.arrayContaining([{ name: 'nat64.hooks.test', type: 'AAAA' }]));
    expect((await create({ url: 'https://not-yet.hooks.test/hook' })).status).toBe(201);
    expect(dns.questions.slice(asked)).toEqual(
      expect.arrayContaining([
        { name: 'not-yet.hooks.test', type: 'A' },
        { name: 'not-yet.hooks.test', type: 'AAAA' },
      ]),
    );
  });

  it('accepts a public https URL, stores the secret encrypted and lists the endpoint without it', async () => {
    const response = await create({ url: 'https://hooks.partner.example/licences', events: ['licence.status_changed'] });
    expect(response.status).toBe(201);
    const created = response.body as { id: string; secret: string };
    expect(created).toEqual({
      id: expect.any(String),
      url: 'https://hooks.partner.example/licences',
      events: ['licence.status_changed'],
      secret: expect.stringMatching(/^whsec_/),
      createdAt: expect.any(String),
      mode: 'live',
    });
    const { rows } = await t.db.query('SELECT secret FROM webhook_endpoints WHERE id = $1', [created.id]);
    expect(rows[0].secret).toMatch(/^v2\.[\w-]{8}\./); // sealed, naming its key
    expect(rows[0].secret).not.toContain(created.secret.slice(6));
    const listed = await request(t.baseUrl, 'GET', '/v1/webhooks', { headers: { 'x-api-key': key } });
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    expect(await create({ url: 'https://hooks.partner.example/', events: ['licence.exploded'] })).toMatchObject({ status: 400 });
    // An IPv6 address that carries a public IPv4 address is public too.
    expect(await create({ url: 'https://[64:ff9b::808:808]/hook' })).toMatchObject({ status: 201 });
  });

  it("changes an endpoint's URL and event types with PATCH, refusing an empty body, a refused URL, a weaker key and another user, each changing nothing", async () => {
    const created = (await create({ url: 'https://hooks.partner.example/v1?token=one', events: ['ping'] })).body as { id: string; createdAt: string };
    const patch = (apiKey: string, id: string, body?: object) =>
      request(t.baseUrl, 'PATCH', `/v1/webhooks/${id}`, { headers: { 'x-api-key': apiKey }, body });
    const stored = async () => (await t.db.query('SELECT url, events, secret FROM webhook_endpoints WHERE id = $1', [created.id])).rows[0];
    const logged = async () =>
      (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM activity_events WHERE action = 'webhook.updated' AND target_id = $1`, [created.id]))
        .rows[0].n;
    const before = await stored();
    const { key: otherKey } = await t.createKey();
    const keyWithRole = async (role: string) =>
      ((await request(t.baseUrl, 'POST', '/v1/keys', { headers: { 'x-api-key': key }, body: { name: role, role } })).body as { key: string }).key;

    const shape = { code: 'VALIDATION_ERROR', message: 'Request body must have url, events or both, with events a list of known event types' };
    const badUrl = { code: 'VALIDATION_ERROR', message: 'url must be an https URL whose host is not a private, loopback, link-local or metadata address' };
    const notFound = { code: 'WEBHOOK_NOT_FOUND', message: 'Webhook endpoint not found' };
    const forbidden = { code: 'FORBIDDEN', message: "This API key's role does not allow this operation" };
    const refusals: [string, string, object | undefined, number, object][] = [
      [key, created.id, {}, 400, shape],
      [key, created.id, undefined, 400, { code: 'VALIDATION_ERROR', message: 'Request body must be a JSON object' }],
      [key, created.id, { events: ['licence.eaten'] }, 400, shape],
      [key, created.id, { url: 'https://hooks.partner.example/v2', secret: 'whsec_x' }, 400, shape],
      [key, created.id, { url: 'https://10.0.0.1/hook' }, 400, badUrl],
      [key, created.id, { url: `https://${Object.keys(BLOCKED_BY_NAME)[0]}/hook`, events: ['licence.status_changed'] }, 400, badUrl],
      [otherKey, created.id, { url: 'https://hooks.partner.example/theirs' }, 404, notFound],
      [key, '00000000-0000-4000-8000-000000000000', { url: 'https://hooks.partner.example/v2' }, 404, notFound],
      [key, 'not-a-uuid', { url: 'https://hooks.partner.example/v2' }, 404, notFound],
      [await keyWithRole('compliance'), created.id, { url: 'https://hooks.partner.example/v2' }, 403, forbidden],
      [await keyWithRole('viewer'), created.id, { url: 'https://hooks.partner.example/v2' }, 403, forbidden],
    ];
    for (const [apiKey, id, body, status, answer] of refusals) {
      const response = await patch(apiKey, id, body);
      expect([body, response.status, response.body]).toEqual([body, status, answer]);
    }
    expect([await stored(), await logged()]).toEqual([before, 0]);

    const expected = {
      id: created.id,
      url: 'https://hooks.partner.example/v2?token=two',
      events: ['ping'],
      createdAt: created.createdAt,
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
      mode: 'live',
    };
    const moved = await patch(key, created.id, { url: 'https://hooks.partner.example/v2?token=two' });
    expect([moved.status, moved.body]).toEqual([200, expected]);
    const retyped = await patch(await keyWithRole('developer'), created.id, { events: ['licence.status_changed', 'ping', 'ping'] });
    expect([retyped.status, retyped.body]).toEqual([200, { ...expected, events: ['licence.status_changed', 'ping'] }]);
    // The same values again: answered as it is, and no event, since nothing changed.
    const same = await patch(key, created.id, { url: expected.url, events: ['licence.status_changed', 'ping'] });
    expect([same.status, same.body]).toEqual([200, { ...expected, events: ['licence.status_changed', 'ping'] }]);
    expect([await stored(), await logged()]).toEqual([{ ...before, url: expected.url, events: ['licence.status_changed', 'ping'] }, 2]);
    const listed = (await request(t.baseUrl, 'GET', '/v1/webhooks', { headers: { 'x-api-key': key } })).body as { webhooks: { id: string }[] };
    expect(listed.webhooks.find((webhook) => webhook.id === created.id)).toEqual({ ...expected, events: ['licence.status_changed', 'ping'] });
  });

  it('documents every monitoring endpoint with its answers and error codes', async () => {
    const document = (await request(t.baseUrl, 'GET', '/docs/openapi.json')).body as Record<string, any>;
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    const statuses = (operation: { responses: object }) => Object.keys(operation.responses).sort();
    const paths = document.paths;
    expect(statuses(paths['/v1/watchlist/{licenceNumber}'].put)).toEqual(['200', '201', '400', '401', '403', '409', '429', '500', '503']);
    expect(statuses(paths['/v1/watchlist/{licenceNumber}'].delete)).toEqual(['204', '400', '401', '403', '404', '429', '500', '503']);
    expect(statuses(paths['/v1/watchlist:batchAdd'].post)).toEqual(['200', '400', '401', '403', '409', '429', '500', '503']);
    expect(statuses(paths['/v1/watchlist'].get)).toEqual(['200', '400', '401', '429', '500', '503']);
    expect(statuses(paths['/v1/webhooks'].post)).toEqual(['201', '400', '401', '403', '429', '500', '503']);
    expect(statuses(paths['/v1/webhooks'].get)).toEqual(['200', '401', '403', '429', '500', '503']);
    expect(statuses(paths['/v1/webhooks/{id}'].delete)).toEqual(['204', '401', '403', '404', '429', '500', '503']);
    expect(statuses(paths['/v1/webhooks/{id}'].patch)).toEqual(['200', '400', '401', '403', '404', '429', '500', '503']);
    expect(statuses(paths['/v1/webhooks/{id}/rotate-secret'].post)).toEqual(['200', '401', '403', '404', '429', '500', '503']);
    expect(statuses(paths['/v1/webhooks/{id}/test'].post)).toEqual(['202', '401', '403', '404', '429', '500', '503']);
    expect(statuses(paths['/v1/webhooks/{id}/deliveries'].get)).toEqual(['200', '401', '403', '404', '429', '500', '503']);
    expect(statuses(paths['/v1/webhooks/{id}/deliveries/{deliveryId}/retry'].post)).toEqual(['202', '401', '403', '404', '429', '500', '503']);
    for (const operation of [paths['/v1/webhooks/{id}/test'].post, paths['/v1/webhooks/{id}/deliveries/{deliveryId}/retry'].post]) {
      expect(operation.responses['429'].headers['Retry-After']).toMatchObject({ required: true, schema: { type: 'integer', minimum: 1 } });
    }
    expect(statuses(paths['/v1/events'].get)).toEqual(['200', '400', '401', '429', '500', '503']);
    const schemas = document.components.schemas;
    expect(schemas.WatchEntryDto.required).toEqual(
      expect.arrayContaining(['licenceNumber', 'reference', 'status', 'licence', 'checkedAt', 'expiresInDays', 'state']),
    );
    expect(schemas.WatchEntryDto.properties.expiresInDays).toMatchObject({ type: ['integer', 'null'] });
    expect(schemas.DeliveryAttemptDto.properties.responseStatus).toMatchObject({ type: ['integer', 'null'] });
    expect(schemas.CreatedWebhookDto.required).toEqual(['id', 'url', 'events', 'secret', 'createdAt', 'mode']);
    expect(schemas.UpdateWebhookDto.required).toBeUndefined();
    expect(Object.keys(schemas.UpdateWebhookDto.properties)).toEqual(['url', 'events']);
  });
});
