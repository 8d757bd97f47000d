import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

const API_KEY_SCHEME = 'api-key';
const BEARER_SCHEME = 'bearer';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Licence Verification Service')
    .setDescription(
      'Verifies UK SIA licences by their 16-digit number against the public Register of Licence Holders, ' +
        'and reports the monthly verification quota of the calling API key.',
    )
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, API_KEY_SCHEME)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The API key as a bearer token' }, BEARER_SCHEME)
    .addSecurityRequirements(API_KEY_SCHEME)
    .addSecurityRequirements(BEARER_SCHEME)
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Swagger UI at /docs and the document at /docs/openapi.json. */
export function mountOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs/openapi.json',
    raw: ['json'],
  });
}
