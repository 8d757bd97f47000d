import { setTimeout as sleep } from 'node:timers/promises';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

import { databaseUrl, TEST_REDIS_URL } from './test-run';

export { freePort } from './free-port';

/** A launcher on the run's own database `name` and Redis prefix `name`, every port chosen by the system. */
export function isolatedLauncherSettings(name: string, dataDir: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl(name),
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: name,
    HOST: '127.0.0.1',
    PORT: '0',
    WORKER_HTTP_PORT: '0',
    SANDBOX_PORT: '0',
    LVS_DATA_DIR: dataDir,
  };
}

/** The banner's last line: every process is ready once it is printed. */
export const STARTED = /\nStop everything with Ctrl-C\.\n/;

export interface CurlAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** Parses `curl -i` output: status line, headers, JSON body. */
export function parseCurl(output: string): CurlAnswer {
  const [head, body] = output.split(/\r\n\r\n/, 2);
  const [statusLine, ...headerLines] = head.trim().split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) as Record<string, unknown> };
}

/** The command line printed right after a comment line starting with `title`. */
export function commandAfter(log: string, title: string): string {
  const lines = log.split('\n');
  return lines[lines.findIndex((line) => line.startsWith(title)) + 1];
}

export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A data directory of its own, never the developer's .data; the postgres user must be able to enter it. */
export async function scratchDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lvs-launcher-'));
  await chmod(dir, 0o755);
  return join(dir, 'data');
}

export function removeDataDir(dataDir: string): Promise<void> {
  return rm(join(dataDir, '..'), { recursive: true, force: true });
}

export interface ShellResult {
  code: number | null;
  stdout: string;
}

/** Runs a command line with bash, as a person pasting it would. */
export function runInBash(script: string, timeoutMs = 60_000): Promise<ShellResult> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { timeout: timeoutMs, encoding: 'utf8' }, (error, stdout) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }),
    );
  });
}

/** `npm start` / `npm run demo` as a terminal runs it: its own process group, Ctrl-C to the group. */
export class LauncherProcess {
  private output = '';
  readonly exited: Promise<number | null>;

  /** @param terminal on a terminal, whose line endings (\r\n) are kept as \n */
  private constructor(
    private readonly child: ChildProcess,
    terminal = false,
  ) {
    const keep = (chunk: string) => (this.output += terminal ? chunk.replace(/\r\n/g, '\n') : chunk);
    child.stdout?.setEncoding('utf8').on('data', keep);
    child.stderr?.setEncoding('utf8').on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  static start(script: 'start' | 'demo', env: Record<string, string>): LauncherProcess {
    const child = spawn('npm', ['run', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    return new LauncherProcess(child);
  }

  /** `npm run <script>` on a terminal of its own (util-linux's script), as a person runs it. */
  static startOnTerminal(script: 'start' | 'demo', env: Record<string, string>): LauncherProcess {
    const child = spawn('script', ['--quiet', '--flush', '--return', '--command', `npm run ${script}`, '/dev/null'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', TERM: 'dumb', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    return new LauncherProcess(child, true);
  }

  /** Ctrl-C typed on the terminal of startOnTerminal: the terminal sends SIGINT to what runs in it. */
  typeCtrlC(): Promise<number | null> {
    this.child.stdin?.write('\x03');
    return this.exited;
  }

  /** The launcher's compiled entry straight, with a chosen PATH (to hide redis-server). */
  static startEntry(env: Record<string, string>): LauncherProcess {
    const child = spawn(process.execPath, [join(ROOT, 'dist/tools/launcher/main.js')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    return new LauncherProcess(child);
  }

  get log(): string {
    return this.output;
  }

  async waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    for (;;) {
      const match = this.output.match(pattern);
      if (match) return match;
      if (exited || Date.now() > deadline) throw new Error(`No ${pattern} in the launcher's output:\n${this.output.slice(-5000)}`);
      await sleep(100);
    }
  }

  /** "name pid N" pairs from the launcher's "Processes:" line. */
  pids(): Map<string, number> {
    const line = this.output.match(/Processes: (.*)/)?.[1] ?? '';
    return new Map([...line.matchAll(/([\w-]+) pid (\d+)/g)].map((match) => [match[1], Number(match[2])]));
  }

  /** Ctrl-C: SIGINT to the whole process group, as a terminal sends it. */
  interrupt(): Promise<number | null> {
    if (this.child.pid) process.kill(-this.child.pid, 'SIGINT');
    return this.exited;
  }

  /** For a failed test: the launcher stops whatever it started. */
  kill(): void {
    if (this.child.pid && this.child.exitCode === null) {
      try {
        process.kill(-this.child.pid, 'SIGTERM'); // the launcher then stops its children
      } catch {
        // already gone
      }
    }
  }
}
