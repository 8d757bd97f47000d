import type { OpenAPIObject } from '@nestjs/swagger';
import { closeRequestSchemas } from './request-schemas';

function documentWith(paths: OpenAPIObject['paths'], schemas: Record<string, object>): OpenAPIObject {
  return { openapi: '3.1.0', info: { title: 't', version: '1' }, paths, components: { schemas } };
}

describe('closeRequestSchemas', () => {
  it('closes the JSON request schemas and the named schemas they reach, nested and through allOf or items', () => {
    const document = documentWith(
      {
        '/rows': {
          post: {
            requestBody: {
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/Roster' } },
                'text/csv': { schema: { type: 'object', properties: { raw: { type: 'string' } } } },
              },
            },
            responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Answer' } } } } },
          },
        },
      },
      {
        Roster: {
          type: 'object',
          properties: {
            items: { type: 'array', items: { $ref: '#/components/schemas/Row' } },
            holder: { allOf: [{ $ref: '#/components/schemas/Holder' }] },
          },
        },
        Row: { type: 'object', properties: { licenceNumber: { type: 'string' } }, example: { licenceNumber: '1', properties: {} } },
        Holder: { type: 'object', properties: { name: { type: 'string' } } },
        Answer: { type: 'object', properties: { status: { type: 'string' } } },
      },
    );
    const schemas = closeRequestSchemas(document).components!.schemas as Record<string, Record<string, unknown>>;
    expect(Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, schema.additionalProperties]))).toEqual({
      Roster: false,
      Row: false,
      Holder: false,
      // an answer's schema is left as it is, and so is a CSV body and an example
      Answer: undefined,
    });
    expect(schemas.Row.example).toEqual({ licenceNumber: '1', properties: {} });
    const csv = document.paths['/rows'].post!.requestBody as { content: Record<string, { schema: Record<string, unknown> }> };
    expect(csv.content['text/csv'].schema.additionalProperties).toBeUndefined();
  });

  it('keeps a schema that says what its extra fields may be', () => {
    const document = documentWith(
      {
        '/tags': {
          put: {
            requestBody: { content: { 'application/json': { schema: { type: 'object', properties: {}, additionalProperties: { type: 'string' } } } } },
            responses: {},
          },
        },
      },
      {},
    );
    const body = closeRequestSchemas(document).paths['/tags'].put!.requestBody as { content: Record<string, { schema: Record<string, unknown> }> };
    expect(body.content['application/json'].schema.additionalProperties).toEqual({ type: 'string' });
  });
});
