import { ApiExtension, MediaTypeObject, OpenAPIObject } from '@nestjs/swagger';

// @ApiBody gives every media type of a route one schema; a body that is not JSON needs its own.
const EXTENSION = 'x-request-content';

/** Documents one more media type of a route's request body, with its own schema (e.g. CSV as a string). */
export function ApiRequestContent(mediaType: string, content: MediaTypeObject): MethodDecorator {
  return ApiExtension(EXTENSION, { [mediaType]: content });
}

/** Moves what ApiRequestContent recorded into each operation's request body, where OpenAPI wants it. */
export function applyRequestContents(document: OpenAPIObject): OpenAPIObject {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as Array<Record<string, unknown>>) {
      const extra = operation?.[EXTENSION] as Record<string, MediaTypeObject> | undefined;
      if (!extra) continue;
      delete operation[EXTENSION];
      const requestBody = (operation.requestBody ??= { content: {} }) as { content: Record<string, MediaTypeObject> };
      Object.assign(requestBody.content, extra);
    }
  }
  return document;
}
