import { OpenAPIObject } from '@nestjs/swagger';
import { applyVerificationModeDocs, VERIFICATION_MODE_HEADER } from './verification-mode-docs';

describe('applyVerificationModeDocs', () => {
  const documentWith = (): OpenAPIObject => ({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/v1/keys': {
        get: { responses: { '200': { description: 'ok', headers: { RateLimit: { schema: { type: 'string' } } } }, '401': { description: 'no key' } } },
      },
      '/.well-known/jwks.json': { get: { responses: { '200': { description: 'keys' } } } },
    },
  });

  it('documents the header on every answer of a keyed operation but 401, beside the headers it had', () => {
    const responses = applyVerificationModeDocs(documentWith()).paths['/v1/keys'].get!.responses as Record<string, { headers?: Record<string, unknown> }>;
    expect(Object.keys(responses['200'].headers!)).toEqual(['RateLimit', VERIFICATION_MODE_HEADER]);
    expect(responses['200'].headers![VERIFICATION_MODE_HEADER]).toMatchObject({ required: false, schema: { type: 'string', enum: ['test'] } });
    expect(responses['401'].headers).toBeUndefined();
  });

  it('leaves an operation that takes no key alone', () => {
    const responses = applyVerificationModeDocs(documentWith()).paths['/.well-known/jwks.json'].get!.responses as Record<string, { headers?: unknown }>;
    expect(responses['200'].headers).toBeUndefined();
  });
});
