import { readFileSync } from 'node:fs';

/**
 * The API's Node and V8 flags: `config.apiNodeFlags` in package.json, whose "//" note gives each flag's reason.
 * `npm run start:api` (and so the image) passes them as $npm_package_config_apiNodeFlags; the launcher and the
 * bench read them here, so that every way of starting the API runs it with the same flags. The worker has none.
 */
export function readApiNodeFlags(packageJsonPath: string): string[] {
  const { config } = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { config?: { apiNodeFlags?: string } };
  return (config?.apiNodeFlags ?? '').split(' ').filter((flag) => flag !== '');
}
