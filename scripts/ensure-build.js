#!/usr/bin/env node
// `npm start` / `npm run demo`, step one: build when dist/ is missing or older than the sources.
// Plain JavaScript, not compiled: it runs before there is anything compiled.
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const output = join(root, 'dist/tools/launcher/main.js');
const inputs = ['src', 'libs', 'tools', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestChange(join(path, entry))));
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
