import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger';

/**
 * What the document says beyond the routes: the webhooks the service sends (OpenAPI 3.1) and the schemas they
 * name. The feature that sends them provides it, so this layer needs to know no feature.
 */
export abstract class OpenApiWebhooks {
  abstract readonly webhooks: NonNullable<OpenAPIObject['webhooks']>;
  abstract readonly schemas: Record<string, SchemaObject>;
}

/** Adds the webhooks section and its schemas; a schema name the routes already use is a mistake, not merged. */
export function applyWebhooks(document: OpenAPIObject, extra: OpenApiWebhooks): OpenAPIObject {
  const schemas = (document.components ??= {}).schemas ?? {};
  const clashes = Object.keys(extra.schemas).filter((name) => name in schemas);
  if (clashes.length > 0) throw new Error(`The webhooks' schemas clash with the routes': ${clashes.join(', ')}`);
  document.components.schemas = { ...schemas, ...extra.schemas };
  document.webhooks = extra.webhooks;
  return document;
}
