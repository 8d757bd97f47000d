import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, LicenseObject, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { applyRequestContents } from './api-request-content';
import { applyWebhooks, OpenApiWebhooks } from './openapi-webhooks';
import { applyRateLimitDocs } from './rate-limit-docs';
import { applyVerificationModeDocs } from './verification-mode-docs';
import { closeRequestSchemas } from './request-schemas';
import { documentServers } from './server-url';

const SERVICE_NAME = 'Licence Verification Service';
const API_KEY_SCHEME = 'api-key';
const BEARER_SCHEME = 'bearer';

// The document the API serves, but for `servers`, which follows the request (mountOpenApi).
// OpenAPI 3.1: the Swagger module turns `nullable` into JSON Schema's `type: [..., "null"]`, so a null licence
// validates as null instead of having to satisfy the licence object (3.0 cannot say that of a $ref).
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle(SERVICE_NAME)
    .setDescription(
      'Verifies UK SIA licences by their 16-digit number against the public Register of Licence Holders, ' +
        'and reports the monthly verification quota of the calling API key. Every error answer is ' +
        '{"code","message"}; 202, 404 and 409 verification answers are results with the verification body.',
    )
    .setVersion('1')
    .addTag('verification', 'Verify a licence by its number')
    .addTag('holders', 'Whether a licence belongs to a person (name and date of birth), and search by name')
    .addTag('quota', 'Monthly verification quota of the calling user')
    .addTag('batches', 'Check a roster of up to 1,000 licence numbers at once, as JSON or CSV, and download the results')
    .addTag(
      'monitoring',
      'Watchlists re-checked against the register, signed webhooks (Standard Webhooks) when a licence changes or ' + 'nears expiry, and the events feed',
    )
    .addTag('verifications', 'A record of every final answer: history, CSV export, and receipts signed with Ed25519 that anyone can verify offline')
    .addTag('keys', 'The API keys of the calling user: list, issue and revoke them')
    .addTag('activity', "The account's activity log: who changed what, when and from where, in a hash chain")
    .addTag('test', "Test mode, for test keys only: change a licence of the caller's built-in test register, and restore it")
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The API key' }, API_KEY_SCHEME)
    // addSecurity, not addBearerAuth: that one claims the token is a JWT, and ours is an opaque API key.
    .addSecurity(BEARER_SCHEME, { type: 'http', scheme: 'bearer', description: 'The same API key as a bearer token' })
    .addSecurityRequirements(API_KEY_SCHEME)
    .addSecurityRequirements(BEARER_SCHEME)
    .build();
  // Set directly: the builder would add empty url and email fields, which are not valid URLs or addresses.
  config.info.contact = { name: `${SERVICE_NAME} support` };
  // 3.1 names a licence by SPDX expression; LicenseRef- is SPDX's form for one that is not on its list.
  config.info.license = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } as LicenseObject;
  const document = applyVerificationModeDocs(applyRateLimitDocs(applyRequestContents(SwaggerModule.createDocument(app, config))));
  return applyWebhooks(closeRequestSchemas(document), app.get(OpenApiWebhooks));
}

/** Swagger UI at /docs and the document at /docs/openapi.json, built once; only `servers` follows the request. */
export function mountOpenApi(app: INestApplication): void {
  const config = app.get(AppConfig);
  const settings = { NODE_ENV: config.get('NODE_ENV'), PUBLIC_BASE_URL: config.get('PUBLIC_BASE_URL') };
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs/openapi.json',
    raw: ['json'],
    customSiteTitle: `${SERVICE_NAME} API`,
    patchDocumentOnRequest: <TRequest>(request: TRequest, _reply: unknown, document: OpenAPIObject) => ({
      ...document,
      servers: documentServers(settings, request as FastifyRequest),
    }),
  });
}
