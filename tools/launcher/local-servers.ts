import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { Supervised, Supervisor } from './supervisor';

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export function isPortOpen(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const finish = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/**
 * Whether a server could listen on host:port now. Only "in use" counts as not free: any other refusal
 * (an address this machine lacks) is left to the process that listens there to report.
 */
export function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code !== 'EADDRINUSE'));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

export const NO_REDIS_SERVER_MESSAGE = [
  'Redis is not reachable at the default address and there is no redis-server on this machine.',
  'Install one (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis),',
  'or run one in Docker: docker compose up -d redis, or set REDIS_URL to a Redis you have.',
];

/** Starts the machine's redis-server on the port, its data under dataDir; null when there is none. */
export async function startLocalRedis(
  supervisor: Supervisor,
  port: number,
  dataDir: string,
  env: Record<string, string | undefined>,
): Promise<Supervised | null> {
  if (spawnSync('redis-server', ['--version'], { env }).error) return null;
  await mkdir(dataDir, { recursive: true });
  const redis = supervisor.start(
    'redis',
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dataDir, '--save', '60 1', '--appendonly', 'no'],
    env,
  );
  await redis.waitFor(/Ready to accept connections/, 20_000);
  return redis;
}

/** Starts the embedded PostgreSQL (see embedded-postgres.ts) as a supervised child. */
export async function startEmbeddedPostgres(
  supervisor: Supervisor,
  entry: string,
  port: number,
  dataDir: string,
  env: Record<string, string | undefined>,
): Promise<Supervised> {
  const postgres = supervisor.start('postgres', process.execPath, [entry, String(port), dataDir], env);
  await postgres.waitFor(/Embedded PostgreSQL ready/, 120_000);
  return postgres;
}
