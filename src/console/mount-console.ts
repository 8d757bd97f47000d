import fastifyStatic from '@fastify/static';
import fastifyView from '@fastify/view';
import type { FastifyInstance } from 'fastify';
import { Eta } from 'eta';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CONSOLE_ASSETS_PREFIX = '/console/assets/';
/** The console's stylesheet, script and icon: the operator console serves the same files. */
export const CONSOLE_ASSETS_DIR = join(__dirname, 'assets');

/**
 * The console's templates (Eta, escaped by default) and its own stylesheet and script, served by the API:
 * no CDN, and no inline script, so the service's Content-Security-Policy holds. Queued, not awaited: awaiting
 * during Nest's module init loads Fastify's plugins before Nest installs its error handler, and every route
 * registered after that keeps Fastify's default one. They load when the server starts, before any request.
 */
export function mountConsole(fastify: FastifyInstance): void {
  registerViews(fastify, join(__dirname, 'views'));
  void fastify.register(fastifyStatic, {
    root: CONSOLE_ASSETS_DIR,
    prefix: CONSOLE_ASSETS_PREFIX,
    decorateReply: false,
    maxAge: '1h',
  });
  // Browsers ask every origin for /favicon.ico, whatever the page's <link rel="icon"> says: the console's icon.
  const favicon = readFileSync(join(CONSOLE_ASSETS_DIR, 'favicon.svg'));
  fastify.get('/favicon.ico', (_request, reply) => reply.type('image/svg+xml').header('cache-control', 'public, max-age=3600').send(favicon));
}

/**
 * Eta templates from `views`, rendered with `reply.view`. The reply's `locals` is declared first, as nothing: left to
 * it, @fastify/view adds an onRequest hook that gives every reply of every route (verify's too) an empty `locals`, and
 * our pages pass their data to each view instead.
 */
export function registerViews(fastify: FastifyInstance, views: string): void {
  fastify.decorateReply('locals', null);
  void fastify.register(fastifyView, { engine: { eta: new Eta({ views, cache: true }) }, root: views, production: true });
}
