#!/usr/bin/env node
// `npm run lint`, last step: Spectral lints the OpenAPI document the API serves in production with .spectral.yaml
// (spectral:oas and the OWASP API Security rules) and fails on any error. Plain JavaScript, like ensure-build.js,
// which it runs first: the document is written by the compiled code.
const { spawnSync } = require('node:child_process');
const { mkdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const file = join(root, 'node_modules/.cache/lvs-openapi-lint/openapi.json');

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run([join(root, 'scripts/ensure-build.js')]);
mkdirSync(join(file, '..'), { recursive: true });
run([join(root, 'dist/src/cli/openapi-document.cli.js'), file]);
run([require.resolve('@stoplight/spectral-cli/dist/index.js'), 'lint', file, '--ruleset', join(root, '.spectral.yaml'), '--fail-severity', 'error']);
