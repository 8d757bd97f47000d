#!/usr/bin/env node
// `npm start` / `npm run demo`, step one: build when dist/ is missing or older than the sources.
// Plain JavaScript, not compiled: it runs before there is anything compiled.
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const output = join(root, 'dist/tools/launcher/main.js');
const inputs = ['src', 'libs', 'tools', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];

// Build output inside the inputs (libs/client/dist) is no source; `npm run build` writes it before dist/.
const OUTPUTS = new Set(['dist', 'node_modules']);

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  const entries = readdirSync(path).filter((entry) => !OUTPUTS.has(entry));
  return Math.max(stat.mtimeMs, ...entries.map((entry) => newestChange(join(path, entry))));
}

const built = existsSync(output) ? statSync(output).mtimeMs : 0;
const changed = Math.max(
  ...inputs
    .map((input) => join(root, input))
    .filter(existsSync)
    .map(newestChange),
);
if (changed > built) {
  console.log(built === 0 ? 'Building (no dist/ yet)…' : 'Building (sources changed since the last build)…');
  const result = spawnSync(process.execPath, [join(root, 'node_modules/@nestjs/cli/bin/nest.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
