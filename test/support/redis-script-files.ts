import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptDefinition } from '../../src/redis/redis-script';

const SRC = join(__dirname, '../../src');

/** Every Lua script of the service: each exported by a `*.script.ts` file beside the code that runs it, with that file. */
export function scriptFiles(): { file: string; script: ScriptDefinition }[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.script.ts'))
    .sort()
    .flatMap((file) =>
      // Found at run time: a script added anywhere must show up here without being listed.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      Object.values(require(join(SRC, file)) as Record<string, unknown>)
        .filter((value): value is ScriptDefinition => typeof value === 'object' && value !== null && 'lua' in value)
        .map((script) => ({ file, script })),
    );
}
