import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const KEYS_CLI = join(__dirname, '../../dist/src/auth/keys.cli.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run keys -- ARGS` as an operator runs it: the real command in its own process. */
export function runKeysCli(env: Record<string, string>, ...args: string[]): CliResult {
  const result = spawnSync(process.execPath, [KEYS_CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
