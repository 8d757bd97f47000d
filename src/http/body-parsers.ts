import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Readable } from 'node:stream';
import { DECODED_MEDIA_TYPES, DecodedMediaType } from './decode-request-body';
import { isWellFormedContentType } from './well-formed-content-type';

export type BodyParser = (request: FastifyRequest, payload: Readable) => Promise<unknown>;

/**
 * Fastify answers a Content-Type it cannot read (`;;;`) with its own 415 before any parser or guard runs; its
 * documentation leaves such a header to an onRequest hook. A neutral type stands in, which the catch-all parser
 * refuses after the key check like any other type no route decodes. Like every hook run on each request, it takes
 * a callback: an async hook costs a promise per request.
 */
function deferContentTypeCheck(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const contentType = request.headers['content-type'];
  if (contentType !== undefined && contentType !== 'application/json' && !isWellFormedContentType(contentType)) {
    request.headers['content-type'] = 'application/octet-stream';
  }
  done();
}

/**
 * One Fastify parser per media type a route decodes, and the catch-all for every other type (and for a body
 * without Content-Type). Fastify's own JSON and text parsers go: they would answer a bad body before the guard.
 */
export function registerBodyParsers(fastify: FastifyInstance, parserFor: (mediaType: DecodedMediaType | undefined) => BodyParser): void {
  fastify.removeAllContentTypeParsers();
  for (const mediaType of DECODED_MEDIA_TYPES) fastify.addContentTypeParser(mediaType, parserFor(mediaType));
  fastify.addContentTypeParser('*', parserFor(undefined));
  fastify.addHook('onRequest', deferContentTypeCheck);
}
