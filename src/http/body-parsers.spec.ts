import Fastify, { FastifyInstance } from 'fastify';
import { registerBodyParsers } from './body-parsers';

/** Which parser Fastify chose for each Content-Type: each parser answers its media type (null: the catch-all). */
describe('registerBodyParsers', () => {
  let fastify: FastifyInstance;

  beforeAll(async () => {
    fastify = Fastify();
    registerBodyParsers(fastify, (mediaType) => async (_request, payload) => {
      payload.resume();
      return { mediaType: mediaType ?? null };
    });
    fastify.post('/', (request) => request.body ?? { mediaType: 'no body read' });
    await fastify.ready();
  });
  afterAll(() => fastify.close());

  const parserFor = async (contentType: string | undefined, payload = '{}') => {
    const response = await fastify.inject({
      method: 'POST',
      url: '/',
      payload,
      headers: contentType === undefined ? {} : { 'content-type': contentType },
    });
    return [response.statusCode, response.json<{ mediaType: string | null }>().mediaType];
  };

  it.each([
    ['application/json', 'application/json'],
    ['application/json; charset=utf-8', 'application/json'],
    ['APPLICATION/JSON', 'application/json'],
    ['Application/Json;Charset=UTF-8', 'application/json'],
    ['  application/json  ; charset=utf-8', 'application/json'],
    ['text/csv; charset=utf-8', 'text/csv'],
    ['application/x-www-form-urlencoded; charset=UTF-8', 'application/x-www-form-urlencoded'],
  ])('gives %j to the %s parser', async (contentType, mediaType) => {
    expect(await parserFor(contentType)).toEqual([200, mediaType]);
  });

  it.each([
    'text/plain',
    'text/plain; charset=utf-8',
    'multipart/form-data; boundary=x',
    'application/jsonp',
    'application/json-patch+json',
    'text/plain; charset="',
    // Headers Fastify cannot read, which would meet its 415 without the hook.
    ';;;',
    'application/json, text/plain',
    '\u00e9',
    '',
  ])('gives %j to the catch-all', async (contentType) => {
    expect(await parserFor(contentType)).toEqual([200, null]);
  });

  it('gives a body without Content-Type to the catch-all, and reads no parser for no body', async () => {
    expect(await parserFor(undefined)).toEqual([200, null]);
    expect(await parserFor(undefined, '')).toEqual([200, 'no body read']);
  });
});
