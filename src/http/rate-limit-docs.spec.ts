import { OpenAPIObject } from '@nestjs/swagger';
import { applyRateLimitDocs } from './rate-limit-docs';

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };

function documentWith(operations: Record<string, object>): OpenAPIObject {
  return { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: operations };
}

describe('applyRateLimitDocs', () => {
  it('adds 429 RATE_LIMITED with a required Retry-After, 503, and the RateLimit fields to an operation that takes a key', () => {
    const document = applyRateLimitDocs(
      documentWith({
        '/v1/watchlist': {
          get: { responses: { '200': { description: 'ok' }, '401': { description: 'UNAUTHORIZED', content: ERROR_CONTENT } } },
        },
      }),
    );
    const { responses } = document.paths['/v1/watchlist'].get!;
    expect(Object.keys(responses).sort()).toEqual(['200', '401', '429', '503']);
    expect(responses['429']).toMatchObject({
      description: 'RATE_LIMITED: Too many requests; retry after the time in Retry-After',
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorBody' },
          examples: { RATE_LIMITED: { value: { code: 'RATE_LIMITED', message: 'Too many requests; retry after the time in Retry-After' } } },
        },
      },
      headers: { 'Retry-After': { required: true }, RateLimit: { required: false } },
    });
    expect(responses['200']).toMatchObject({ headers: { RateLimit: { required: true }, 'RateLimit-Policy': { required: true } } });
    expect(responses['503']).toMatchObject({ headers: { RateLimit: { required: false } } });
    expect(responses['401']).not.toHaveProperty('headers');
  });

  it('merges RATE_LIMITED into an existing 429, where Retry-After is then optional', () => {
    const document = applyRateLimitDocs(
      documentWith({
        '/v1/licences/verify': {
          post: {
            responses: {
              '401': { description: 'UNAUTHORIZED', content: ERROR_CONTENT },
              '429': { description: 'QUOTA_EXCEEDED: …', content: { 'application/json': { examples: { QUOTA_EXCEEDED: {} } } } },
              '503': { description: 'SERVICE_UNAVAILABLE: …' },
            },
          },
        },
      }),
    );
    const tooMany = document.paths['/v1/licences/verify'].post!.responses['429'] as Record<string, any>;
    expect(tooMany.description).toBe('QUOTA_EXCEEDED: …; RATE_LIMITED: Too many requests; retry after the time in Retry-After');
    expect(Object.keys(tooMany.content['application/json'].examples)).toEqual(['QUOTA_EXCEEDED', 'RATE_LIMITED']);
    expect(tooMany.headers['Retry-After'].required).toBe(false);
    expect(document.paths['/v1/licences/verify'].post!.responses['503']).toEqual(expect.objectContaining({ description: 'SERVICE_UNAVAILABLE: …' }));
  });

  it('leaves exempt operations and operations without a key as they are, and drops the exemption mark', () => {
    const exempt = { 'x-rate-limit-exempt': true, responses: { '200': { description: 'ok' }, '401': { description: 'UNAUTHORIZED' } } };
    const open = { responses: { '200': { description: 'ok' } } };
    const document = applyRateLimitDocs(documentWith({ '/v1/quota/usage': { get: exempt }, '/docs': { get: open } }));
    expect(document.paths['/v1/quota/usage'].get).toEqual({ responses: { '200': { description: 'ok' }, '401': { description: 'UNAUTHORIZED' } } });
    expect(document.paths['/docs'].get).toEqual({ responses: { '200': { description: 'ok' } } });
  });
});
