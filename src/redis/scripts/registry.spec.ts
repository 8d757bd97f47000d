import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REDIS_SCRIPTS } from './registry';
import { scriptCommandName } from './redis-script';

/** Every script exported by the files of this folder, each with the file it comes from. */
function exportedScripts(): { file: string; script: unknown }[] {
  return readdirSync(__dirname)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !['registry.ts', 'redis-script.ts'].includes(file))
    .flatMap((file) =>
      // Every file of the folder, found at run time: a script added without the registry must fail this spec.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      Object.values(require(join(__dirname, file)) as Record<string, unknown>)
        .filter((value) => typeof value === 'object' && value !== null && 'lua' in value)
        .map((script) => ({ file, script })),
    );
}

describe('REDIS_SCRIPTS', () => {
  it('registers every script of the folder, so that each is defined on the store client', () => {
    const unregistered = exportedScripts().filter(({ script }) => !(REDIS_SCRIPTS as readonly unknown[]).includes(script));
    expect(unregistered.map(({ file }) => file)).toEqual([]);
    expect(exportedScripts()).toHaveLength(REDIS_SCRIPTS.length);
  });

  it('names each script once, under the one prefix', () => {
    const names = REDIS_SCRIPTS.map((script) => script.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^lvs[A-Z][A-Za-z]+$/);
  });
});

describe('scriptCommandName', () => {
  it("prefixes the script's name with lvs", () => {
    expect(scriptCommandName('takeLivePlace')).toBe('lvsTakeLivePlace');
  });
});
