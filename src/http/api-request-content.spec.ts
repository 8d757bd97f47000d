import { OpenAPIObject } from '@nestjs/swagger';
import { applyRequestContents } from './api-request-content';

describe('applyRequestContents', () => {
  it('moves each recorded media type into the operation’s request body, beside the JSON one', () => {
    const csv = { schema: { type: 'string' as const }, example: 'licenceNumber\r\n' };
    const json = { schema: { $ref: '#/components/schemas/RosterDto' } };
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/v1/batches': {
          post: { requestBody: { content: { 'application/json': json } }, responses: {}, 'x-request-content': { 'text/csv': csv } },
          get: { responses: {} },
        },
      },
    } as unknown as OpenAPIObject;
    expect(applyRequestContents(document).paths['/v1/batches']).toEqual({
      post: { requestBody: { content: { 'application/json': json, 'text/csv': csv } }, responses: {} },
      get: { responses: {} },
    });
  });
});
