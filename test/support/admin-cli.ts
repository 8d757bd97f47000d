import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ADMIN_CLI = join(__dirname, '../../dist/src/cli/admin.cli.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run admin -- ARGS` (or its alias `npm run admin -- ARGS`) as an operator runs it: the real command in its own process. Awaited, not run
 * synchronously, so that an app running in the spec's own process keeps answering meanwhile.
 */
export function runAdminCli(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return runCli(ADMIN_CLI, env, ...args);
}

/** Any of the service's commands (a built `dist/` entry), as runAdminCli runs the admin command. */
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
