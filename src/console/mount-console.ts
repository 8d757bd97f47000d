import fastifyStatic from '@fastify/static';
import fastifyView from '@fastify/view';
import type { FastifyInstance } from 'fastify';
import { Eta } from 'eta';
import { join } from 'node:path';

export const CONSOLE_ASSETS_PREFIX = '/console/assets/';

/**
 * The console's templates (Eta, escaped by default) and its own stylesheet and script, served by the API:
 * no CDN, and no inline script, so the service's Content-Security-Policy holds.
 */
export async function mountConsole(fastify: FastifyInstance): Promise<void> {
  const views = join(__dirname, 'views');
  await fastify.register(fastifyView, { engine: { eta: new Eta({ views, cache: true }) }, root: views, production: true });
  await fastify.register(fastifyStatic, {
    root: join(__dirname, 'assets'),
    prefix: CONSOLE_ASSETS_PREFIX,
    decorateReply: false,
    maxAge: '1h',
  });
}
