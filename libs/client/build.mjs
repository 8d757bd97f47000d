// Builds the package: ES modules and CommonJS, each with its types, and a package.json in each folder that says
// which it is (the package itself has no "type", so that both resolve).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(join(here, 'dist'), { recursive: true, force: true });
for (const [build, type] of [
  ['esm', 'module'],
  ['cjs', 'commonjs'],
]) {
  execFileSync(process.execPath, [tsc, '-p', join(here, `tsconfig.${build}.json`)], { stdio: 'inherit' });
  mkdirSync(join(here, 'dist', build), { recursive: true });
  writeFileSync(join(here, 'dist', build, 'package.json'), `${JSON.stringify({ type }, null, 2)}\n`);
}
