import type { OpenAPIObject } from '@nestjs/swagger';

const LOCAL_SCHEMA = '#/components/schemas/';

/**
 * Closes every object schema a JSON request body reaches, named ones through their $ref included: the validation
 * pipe refuses any field a DTO does not declare (forbidNonWhitelisted), nested DTOs too, so the document says so.
 */
export function closeRequestSchemas(document: OpenAPIObject): OpenAPIObject {
  const named = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const closed = new Set<unknown>();
  const close = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || closed.has(node)) return;
    closed.add(node);
    if (Array.isArray(node)) return node.forEach(close);
    const schema = node as Record<string, unknown>;
    if (typeof schema.$ref === 'string' && schema.$ref.startsWith(LOCAL_SCHEMA)) close(named[schema.$ref.slice(LOCAL_SCHEMA.length)]);
    if (schema.properties !== undefined && schema.additionalProperties === undefined) schema.additionalProperties = false;
    for (const [key, value] of Object.entries(schema)) if (key !== 'example' && key !== 'examples') close(value);
  };
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as Array<{ requestBody?: { content?: Record<string, { schema?: unknown }> } }>) {
      for (const [mediaType, media] of Object.entries(operation?.requestBody?.content ?? {})) {
        if (mediaType === 'application/json') close(media.schema);
      }
    }
  }
  return document;
}
