import { ChildProcess, spawn } from 'node:child_process';
import { LinePrefixer } from './line-prefixer';

export type Print = (line: string) => void;

/** One supervised child: its prefixed output, a way to wait for a line, and a graceful stop. */
export class Supervised {
  readonly exited: Promise<number | null>;
  private recent = '';
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
    prefix: string,
    print: Print,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    for (const stream of [child.stdout, child.stderr]) {
      const prefixer = new LinePrefixer(prefix);
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        prefixer.push(chunk).forEach(print);
        this.recent = (this.recent + chunk).slice(-64 * 1024);
        this.waiters.forEach((check) => check());
      });
      stream?.on('end', () => prefixer.flush().forEach(print));
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the first match of `pattern` in the child's output; rejects if it exits first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      const check = (): void => {
        const match = this.recent.match(pattern);
        if (match) {
          done();
          resolve(match);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${this.name} did not print ${pattern} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(check);
      void this.exited.then((code) => {
        if (!this.waiters.has(check)) return;
        done();
        reject(new Error(`${this.name} exited with code ${code} before it was ready`));
      });
      check();
    });
  }

  /** SIGTERM, then SIGKILL if it is still running after `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const killer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(killer);
  }
}

/**
 * Starts children in their own process groups, so that Ctrl-C reaches only the launcher, which then
 * stops them in order (API first, databases last). If the launcher itself dies, they are killed.
 */
export class Supervisor {
  private readonly children: Supervised[] = [];

  constructor(
    private readonly prefixes: Map<string, string>,
    private readonly print: Print,
  ) {
    process.once('exit', () => this.children.forEach((supervised) => supervised.running && supervised.child.kill('SIGKILL')));
  }

  /** "name pid N" of every running child, for the operator (and the tests) to check they are gone later. */
  describeRunning(): string {
    return this.children
      .filter((supervised) => supervised.running)
      .map((supervised) => `${supervised.name} pid ${supervised.pid}`)
      .join(', ');
  }

  start(name: string, command: string, args: string[], env: Record<string, string | undefined>): Supervised {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const supervised = new Supervised(name, child, this.prefixes.get(name) ?? `${name} | `, this.print);
    child.once('error', (error) => this.print(`${name}: ${error.message}`));
    this.children.push(supervised);
    return supervised;
  }
}
