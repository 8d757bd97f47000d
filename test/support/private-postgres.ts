import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

const run = promisify(execFile);

function binary(name: string): string {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().reverse() : [];
  const candidates = ['/usr/local/bin', ...versions.map((version) => `/usr/lib/postgresql/${version}/bin`)];
  const found = candidates.map((dir) => join(dir, name)).find((path) => existsSync(path));
  if (!found) throw new Error(`${name} not found in ${candidates.join(', ')}`);
  return found;
}

/**
 * A PostgreSQL server of the test's own, in a temporary directory on a free port, which the test
 * may stop and start again (the machine's server is shared and must never be stopped). PostgreSQL
 * refuses to run as root, so as root it runs as the postgres user.
 */
export class PrivatePostgres {
  private constructor(
    private readonly dataDir: string,
    readonly port: number,
    private readonly asUser: string[],
  ) {}

  static async start(): Promise<PrivatePostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'lvs-private-pg-'));
    const asUser: string[] = [];
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
      asUser.push('runuser', '-u', 'postgres', '--');
    }
    const server = new PrivatePostgres(join(dir, 'data'), await freePort(), asUser);
    await server.exec(binary('initdb'), ['-D', server.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    await server.resume();
    return server;
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Stops the server: every connection to it fails from now on. */
  async stop(): Promise<void> {
    await this.exec(binary('pg_ctl'), ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
  }

  /** Starts the server (again) on the same port, with the same data. */
  async resume(): Promise<void> {
    const options = `-p ${this.port} -k ${join(this.dataDir, '..')} -c listen_addresses=127.0.0.1 -c fsync=off`;
    await this.exec(binary('pg_ctl'), ['-D', this.dataDir, '-l', join(this.dataDir, '..', 'server.log'), '-o', options, '-w', 'start']);
  }

  /** Freezes the server and every backend (SIGSTOP): connections stay open and nothing answers. */
  freeze(): void {
    this.signalAll('SIGSTOP');
  }

  thaw(): void {
    this.signalAll('SIGCONT');
  }

  private signalAll(signal: NodeJS.Signals): void {
    for (const pid of this.serverPids()) {
      try {
        process.kill(pid, signal);
      } catch (error) {
        // A backend whose connection closed may have ended since the list was read.
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    }
  }

  /** The postmaster (first line of postmaster.pid) and its children, read from /proc. */
  private serverPids(): number[] {
    const postmaster = Number(readFileSync(join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((entry) => {
        try {
          // Field 4 of /proc/<pid>/stat is the parent pid; the name in field 2 may hold spaces, so split after ')'.
          return Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(')').pop()!.trim().split(' ')[1]) === postmaster;
        } catch {
          return false; // ended meanwhile
        }
      })
      .map(Number);
    return [postmaster, ...children];
  }

  async destroy(): Promise<void> {
    try {
      this.thaw();
    } catch {
      // not running
    }
    await this.stop().catch(() => undefined);
    rmSync(join(this.dataDir, '..'), { recursive: true, force: true });
  }

  private async exec(command: string, args: string[]): Promise<void> {
    const [file, ...rest] = [...this.asUser, command, ...args];
    await run(file, rest, { cwd: tmpdir() });
  }
}
