import Fastify from 'fastify';
import { BARE_QUOTA_BODY, BARE_VERIFY_BODY } from './bench-fixtures';

/**
 * The baseline: a bare Fastify server (the project's own fastify package) in its own process, with
 * one POST route answering the same JSON and headers as a cached verification, and one GET route
 * answering a quota record. Whatever the service costs beyond this is ours.
 */
async function main(): Promise<void> {
  const server = Fastify();
  server.post('/v1/licences/verify', async (_request, reply) =>
    reply.header('idempotency-key', 'auto-0000000000000000000000000000000000000000').header('x-verification-source', 'cache').send(BARE_VERIFY_BODY),
  );
  server.get('/v1/quota/usage', async () => BARE_QUOTA_BODY);
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  console.log(`Bare server listening on ${url}`);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

void main();
