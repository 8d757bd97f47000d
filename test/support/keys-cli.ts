import { spawn } from 'node:child_process';
import { join } from 'node:path';

const KEYS_CLI = join(__dirname, '../../dist/src/cli/admin.cli.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run keys -- ARGS` as an operator runs it: the real command in its own process. Awaited, not run
 * synchronously, so that an app running in the spec's own process keeps answering meanwhile.
 */
export function runKeysCli(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return runCli(KEYS_CLI, env, ...args);
}

/** Any of the service's commands (a built `dist/` entry), as runKeysCli runs the keys command. */
export function runCli(entry: string, env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
