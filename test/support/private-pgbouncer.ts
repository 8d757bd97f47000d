import { ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from './free-port';
import { isListening } from './launcher-process';

const run = promisify(execFile);

/**
 * Debian's PgBouncer of the test's own on a free port, in transaction mode (as managed offerings run it), in
 * front of the PostgreSQL at `postgresUrl`: every database, any user name (auth_type any logs in as the URL's
 * user). It keeps PgBouncer's default ignore_startup_parameters, so a client that sends a startup parameter
 * such as statement_timeout is refused, as in production. PgBouncer refuses to run as root: as root it runs
 * as the postgres user.
 */
export class PrivatePgBouncer {
  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly server: ChildProcess,
  ) {}

  static async start(postgresUrl: string): Promise<PrivatePgBouncer> {
    const target = new URL(postgresUrl);
    const dir = mkdtempSync(join(tmpdir(), 'lvs-private-pgbouncer-'));
    const port = await freePort();
    const config = join(dir, 'pgbouncer.ini');
    writeFileSync(
      config,
      [
        '[databases]',
        `* = host=${target.hostname} port=${target.port || 5432} user=${decodeURIComponent(target.username) || 'postgres'}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        `unix_socket_dir = ${dir}`,
        'auth_type = any',
        'pool_mode = transaction',
        'max_client_conn = 2000',
        // Few server connections, closed after 5 s idle: each spec file has a database of its own, and the
        // PostgreSQL behind is shared with other test runs.
        'default_pool_size = 10',
        'server_idle_timeout = 5',
        '',
      ].join('\n'),
    );
    let asUser = {};
    if (process.getuid?.() === 0) {
      const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
      const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
      chownSync(dir, uid, gid);
      chownSync(config, uid, gid);
      asUser = { uid, gid };
    }
    const server = spawn('pgbouncer', [config], { stdio: 'ignore', ...asUser });
    const bouncer = new PrivatePgBouncer(dir, port, server);
    while (!(await isListening(port))) {
      if (server.exitCode !== null) throw new Error(`pgbouncer exited with ${server.exitCode}`);
      await sleep(20);
    }
    return bouncer;
  }

  async destroy(): Promise<void> {
    if (this.server.exitCode === null && this.server.signalCode === null) {
      const exited = new Promise((resolve) => this.server.once('exit', resolve));
      this.server.kill('SIGINT'); // PgBouncer's immediate shutdown
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
