import { startSandbox } from './sandbox-server';

// Standalone register sandbox: `node dist/libs/register-sandbox/src/main.js`.
// SANDBOX_PORT (default 4010), SANDBOX_HOST (default 127.0.0.1), SANDBOX_DATA_FILE (default: shipped data).

const DEFAULT_PORT = 4010;

function portFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`SANDBOX_PORT "${value}" is not a port`);
  return port;
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    port: portFromEnv(process.env.SANDBOX_PORT),
    host: process.env.SANDBOX_HOST || undefined,
    dataFile: process.env.SANDBOX_DATA_FILE || undefined,
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
