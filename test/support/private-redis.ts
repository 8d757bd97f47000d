import { setTimeout as sleep } from 'node:timers/promises';
import { ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { isListening } from './launcher-process';

/**
 * A redis-server of the test's own on a free port, which the test may kill, restart, freeze
 * (SIGSTOP) and thaw: the machine's Redis is shared and must never be stopped.
 */
export class PrivateRedis {
  private server: ChildProcess | null = null;

  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly extraArgs: string[],
  ) {}

  /** `extraArgs`: more redis-server options, such as ['--maxmemory-policy', 'allkeys-lru']. */
  static async start(extraArgs: string[] = []): Promise<PrivateRedis> {
    const redis = new PrivateRedis(mkdtempSync(join(tmpdir(), 'lvs-private-redis-')), await freePort(), extraArgs);
    await redis.resume();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The service's settings for this server. */
  get serviceSettings(): Record<string, string> {
    return { REDIS_URL: this.url };
  }

  /** A client of the test's own. */
  client(): Redis {
    return new Redis(this.url, { maxRetriesPerRequest: 1 });
  }

  /** Starts the server (again) on the same port; with its data (append-only file, synced on every write, as a production Redis would keep it). */
  async resume(): Promise<void> {
    this.server = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        ...this.extraArgs,
      ],
      {
        stdio: 'ignore',
      },
    );
    const server = this.server;
    while (!(await isListening(this.port))) {
      // A server that refused its options exits at once: fail, rather than wait for a port that never opens.
      if (server.exitCode !== null) throw new Error(`redis-server ${this.extraArgs.join(' ')} exited with ${server.exitCode}`);
      await sleep(20);
    }
  }

  /** Kills the server: every connection drops and new ones are refused. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGCONT'); // a frozen server would never die
    server.kill('SIGKILL');
    await exited;
  }

  /** Freezes the server: connections stay open and nothing answers. */
  freeze(): void {
    this.server?.kill('SIGSTOP');
  }

  thaw(): void {
    this.server?.kill('SIGCONT');
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
