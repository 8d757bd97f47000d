import { integerFromEnv, sandboxAddress } from './sandbox-address';
import { startSandbox } from './sandbox-server';

// Standalone register sandbox: `node dist/libs/register-sandbox/src/main.js`.
// SANDBOX_PORT (default 4010), SANDBOX_HOST (default 127.0.0.1), SANDBOX_DATA_FILE (default: shipped data),
// SANDBOX_SLOW_PREFIX with SANDBOX_SLOW_LATENCY_MS (default 8000): numbers with that prefix answer slowly,
// so a demo can show a 202 without racing the timeout.

const DEFAULT_SLOW_LATENCY_MS = 8000;

function slowNumbersFromEnv(): { prefix: string; latencyMs: number } | undefined {
  const prefix = process.env.SANDBOX_SLOW_PREFIX;
  if (!prefix) return undefined;
  if (!/^\d{1,15}$/.test(prefix)) throw new Error(`SANDBOX_SLOW_PREFIX "${prefix}" must be 1 to 15 digits`);
  return { prefix, latencyMs: integerFromEnv(process.env, 'SANDBOX_SLOW_LATENCY_MS', DEFAULT_SLOW_LATENCY_MS, 600_000) };
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    ...sandboxAddress(process.env),
    dataFile: process.env.SANDBOX_DATA_FILE || undefined,
    slowNumbers: slowNumbersFromEnv(),
  });
  console.log(`Register sandbox listening on ${sandbox.url}`);
  const stop = (): void => {
    sandbox.close().catch((error: unknown) => {
      console.error('Register sandbox failed to close', error);
      process.exitCode = 1;
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error('Register sandbox failed to start:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
