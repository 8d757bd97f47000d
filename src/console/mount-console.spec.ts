import Fastify, { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerViews } from './mount-console';

describe('registerViews', () => {
  let views: string;
  let fastify: FastifyInstance;

  beforeEach(async () => {
    views = mkdtempSync(join(tmpdir(), 'lvs-views-'));
    writeFileSync(join(views, 'hello.eta'), 'Hello <%= it.name %>');
    fastify = Fastify();
    registerViews(fastify, views);
    // What @fastify/view's own hook would have set on every reply, the API's routes included (its types leave it out).
    fastify.get('/locals', (_request, reply) => ({ locals: (reply as { locals?: unknown }).locals ?? 'none' }));
    fastify.get('/page', (_request, reply) => reply.view('hello', { name: 'a <b>' }));
    await fastify.ready();
  });

  afterEach(async () => {
    await fastify.close();
    rmSync(views, { recursive: true });
  });

  it('adds no per-request work to the routes that render no page', async () => {
    const response = await fastify.inject({ method: 'GET', url: '/locals' });
    expect([response.statusCode, response.json()]).toEqual([200, { locals: 'none' }]);
  });

  it('renders a page with the data it is given, escaped', async () => {
    const response = await fastify.inject({ method: 'GET', url: '/page' });
    expect([response.statusCode, response.body]).toEqual([200, 'Hello a &lt;b&gt;']);
  });
});
