import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from './free-port';
import { isListening } from './launcher-process';
import { PrivateRedis } from './private-redis';
import { until } from './until';

const PRIMARY_NAME = 'lvs-primary';
// Sentinels agree a primary is down after 1 s without an answer: a failover within seconds.
const DOWN_AFTER_MS = 1000;

/**
 * A Sentinel set-up of the test's own on free ports: one primary, one replica and three sentinels (quorum 2).
 * A test may kill the primary; the sentinels then promote the replica.
 */
export class PrivateRedisSentinel {
  private constructor(
    private readonly dir: string,
    readonly servers: PrivateRedis[],
    private readonly sentinels: { port: number; process: ChildProcess }[],
  ) {}

  static async start(): Promise<PrivateRedisSentinel> {
    const primary = await PrivateRedis.start();
    const replica = await PrivateRedis.start(['--replicaof', '127.0.0.1', String(primary.port)]);
    const dir = mkdtempSync(join(tmpdir(), 'lvs-private-sentinel-'));
    const sentinels = await Promise.all(
      [0, 1, 2].map(async (index) => {
        const port = await freePort();
        const config = join(dir, `sentinel-${index}.conf`);
        // Sentinel rewrites its configuration file as it learns the set-up: each one has its own.
        writeFileSync(
          config,
          [
            `port ${port}`,
            'bind 127.0.0.1',
            `dir ${dir}`,
            `sentinel monitor ${PRIMARY_NAME} 127.0.0.1 ${primary.port} 2`,
            `sentinel down-after-milliseconds ${PRIMARY_NAME} ${DOWN_AFTER_MS}`,
            `sentinel failover-timeout ${PRIMARY_NAME} 10000`,
            '',
          ].join('\n'),
        );
        const process = spawn('redis-sentinel', [config], { stdio: 'ignore' });
        await until(() => isListening(port), Boolean, 10_000);
        return { port, process };
      }),
    );
    const setup = new PrivateRedisSentinel(dir, [primary, replica], sentinels);
    // Ready once every sentinel knows the replica and the other sentinels: a failover can then be agreed.
    await until(
      () => Promise.all(sentinels.map(({ port }) => setup.ask(port, ['SENTINEL', 'MASTER', PRIMARY_NAME]))),
      (replies) => replies.every((reply) => fieldOf(reply, 'num-slaves') === '1' && fieldOf(reply, 'num-other-sentinels') === '2'),
      30_000,
    );
    return setup;
  }

  /** The service's settings for this set-up. */
  get serviceSettings(): Record<string, string> {
    return { REDIS_SENTINELS: this.sentinels.map(({ port }) => `127.0.0.1:${port}`).join(','), REDIS_SENTINEL_NAME: PRIMARY_NAME };
  }

  /** A client of the test's own, on whichever server is the primary now. */
  client(): Redis {
    return new Redis({ sentinels: this.sentinels.map(({ port }) => ({ host: '127.0.0.1', port })), name: PRIMARY_NAME, maxRetriesPerRequest: 1 });
  }

  /** The port of the primary as the first sentinel that answers reports it. */
  async primaryPort(): Promise<number> {
    for (const { port } of this.sentinels) {
      const reply = await this.ask(port, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', PRIMARY_NAME]).catch(() => null);
      if (Array.isArray(reply)) return Number(reply[1]);
    }
    throw new Error('no sentinel answered');
  }

  /** Kills the current primary (SIGKILL); returns its port. */
  async killPrimary(): Promise<number> {
    const port = await this.primaryPort();
    await this.servers.find((server) => server.port === port)!.stop();
    return port;
  }

  async destroy(): Promise<void> {
    await Promise.all(
      this.sentinels.map(async ({ process }) => {
        if (process.exitCode !== null || process.signalCode !== null) return;
        const exited = new Promise((resolve) => process.once('exit', resolve));
        process.kill('SIGKILL');
        await exited;
      }),
    );
    await Promise.all(this.servers.map((server) => server.destroy()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async ask(port: number, command: string[]): Promise<unknown> {
    const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await client.connect();
      return await client.call(command[0], ...command.slice(1));
    } finally {
      client.disconnect();
    }
  }
}

/** A field of a flat [name, value, name, value, ...] reply. */
function fieldOf(reply: unknown, name: string): string | undefined {
  if (!Array.isArray(reply)) return undefined;
  const index = reply.indexOf(name);
  return index >= 0 ? String(reply[index + 1]) : undefined;
}
