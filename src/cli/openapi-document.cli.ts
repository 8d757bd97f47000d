import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { writeFileSync } from 'node:fs';
import { AppModule } from '../app.module';
import { readSettings } from '../config/read-settings';
import { createFastifyAdapter, HTTP_APP_OPTIONS } from '../http/configure-http';
import { buildOpenApiDocument } from '../http/openapi';
import { documentServers } from '../http/server-url';

/** The placeholder production address of deploy/kubernetes: production refuses a PUBLIC_BASE_URL that is not https. */
const PRODUCTION_BASE_URL = 'https://lvs.example.com';

/**
 * `node dist/src/cli/openapi-document.cli.js FILE`: writes the OpenAPI document the API serves in production
 * (operator routes on their own port, PUBLIC_BASE_URL set) without a database, Redis or a listener: Nest's preview
 * mode reads the routes' metadata and creates no provider, so `npm run lint` can check it in about a second.
 */
async function main(file: string | undefined): Promise<void> {
  if (!file) throw new Error('Usage: node dist/src/cli/openapi-document.cli.js FILE');
  const settings = readSettings({ OPERATOR_PORT: '9100', PUBLIC_BASE_URL: PRODUCTION_BASE_URL });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(settings), createFastifyAdapter(settings), {
    ...HTTP_APP_OPTIONS,
    preview: true,
    logger: false,
  });
  // NODE_ENV is left out of the settings, which would then demand production's secrets; only the servers entry reads it.
  const servers = documentServers({ ...settings, NODE_ENV: 'production' }, { protocol: 'https', host: 'unused.invalid' });
  const document = { ...buildOpenApiDocument(app), servers };
  await app.close();
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
