import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SRC = join(__dirname, '..');

/** How often each non-spec file under src/ contains `pattern`, for the files that do. */
function occurrences(pattern: RegExp): Record<string, number> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'));
  const counts = files.map((file) => [file.split('\\').join('/'), readFileSync(join(SRC, file), 'utf8').match(pattern)?.length ?? 0] as const);
  return Object.fromEntries(counts.filter(([, count]) => count > 0));
}

describe('settings are validated once per process', () => {
  it('each entry point calls readSettings once, and nothing else calls it', () => {
    expect(occurrences(/\breadSettings\(/g)).toEqual({
      'main.ts': 1,
      'worker.ts': 1,
      'cli/admin.cli.ts': 1,
      'cli/migrate.cli.ts': 1,
      'http/openapi-document.cli.ts': 1, // production's shape, not its own environment

      'config/read-settings.ts': 1, // its definition
    });
  });

  it('only readSettings validates the environment', () => {
    expect(occurrences(/\bvalidateEnvironment\(/g)).toEqual({ 'config/env.schema.ts': 1, 'config/read-settings.ts': 1 });
  });
});
