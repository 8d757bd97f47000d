import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { WebSocket } from 'undici';

const INSPECTOR = /Debugger listening on (ws:\/\/\S+)/;
/** Node's warning that an emitter holds more listeners than it allows: in our processes, always a leak. */
const LISTENER_LEAK = /^.*MaxListenersExceededWarning.*$/m;

/** One of our entry points (built by `npm test`'s pretest) running in its own process. */
export class ServiceProcess {
  private output = '';

  protected constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  /**
   * Spawns `entry` with exactly `env` (and PATH) and waits until its output matches `ready`.
   * With `inspect`, the process opens the inspector on a free local port (see collectGarbage).
   */
  protected static async spawn<T extends ServiceProcess>(
    make: (child: ChildProcess) => T,
    entry: string,
    env: Record<string, string>,
    ready: RegExp,
    inspect = false,
  ): Promise<T> {
    const child = spawn(process.execPath, [...(inspect ? ['--inspect=127.0.0.1:0'] : []), entry], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = make(child);
    try {
      // A bound for a process that will never be ready, not a pace: four processes starting at once took over 20 s in
      // a CI run at load 14 (traces.e2e-spec.ts).
      await service.waitForOutput(ready, 60_000);
    } catch (error) {
      child.kill('SIGKILL'); // a process that never got ready must not outlive the test (and hold connections)
      throw error;
    }
    return service;
  }

  get log(): string {
    return this.output;
  }

  /** The exit code once the process has ended (null when a signal ended it). */
  get exited(): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve(this.child.exitCode);
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Sends a signal without waiting for the exit. */
  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('the process did not start');
    return this.child.pid;
  }

  /** Resident memory in bytes, from /proc. */
  residentBytes(): number {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
    if (!match) throw new Error(`no VmRSS for process ${this.pid}`);
    return Number(match[1]) * 1024;
  }

  /**
   * Runs a full garbage collection in the process, through the inspector (spawned with `inspect`),
   * so that its resident memory can be compared without V8's lazy collection in the way.
   */
  async collectGarbage(): Promise<void> {
    await this.askInspector('HeapProfiler.collectGarbage');
  }

  /** The bytes of V8 heap in use after a full garbage collection (spawned with `inspect`). */
  async heapUsedAfterCollection(): Promise<number> {
    await this.collectGarbage();
    const { usedSize } = (await this.askInspector('Runtime.getHeapUsage')) as { usedSize: number };
    return usedSize;
  }

  private async askInspector(method: string): Promise<unknown> {
    const url = INSPECTOR.exec(this.output)?.[1];
    if (!url) throw new Error('the process was not started with the inspector');
    const socket = new WebSocket(url);
    try {
      return await new Promise((resolve, reject) => {
        socket.addEventListener('open', () => socket.send(JSON.stringify({ id: 1, method })));
        socket.addEventListener('message', (event) => {
          const answer = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
          if (answer.id === 1) resolve(answer.result);
        });
        socket.addEventListener('error', reject);
      });
    } finally {
      socket.close();
    }
  }

  /** SIGKILL: the process dies mid-work without any chance to clean up. */
  kill(): Promise<void> {
    return this.stop('SIGKILL');
  }

  /** Ends the process; fails (the test that stops it) when the process ever warned of a listener leak. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      await new Promise((resolve) => {
        this.child.once('exit', resolve);
        this.child.kill(signal);
      });
    }
    const leak = LISTENER_LEAK.exec(this.output);
    if (leak) throw new Error(`The process warned of a listener leak: ${leak[0]}`);
  }

  /** The first match of `pattern` in the output, once it appears. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`No ${pattern} in the output:\n${this.output}`)), timeoutMs);
      const onExit = (code: number | null) => finish(new Error(`Process exited with ${code}:\n${this.output}`));
      const check = () => {
        const match = pattern.exec(this.output);
        if (match) finish(undefined, match);
      };
      const finish = (error?: Error, match?: RegExpExecArray) => {
        clearTimeout(timer);
        this.child.stdout?.off('data', check);
        this.child.stderr?.off('data', check);
        this.child.off('exit', onExit);
        if (error) reject(error);
        else resolve(match!);
      };
      this.child.stdout?.on('data', check);
      this.child.stderr?.on('data', check);
      this.child.once('exit', onExit);
      check();
    });
  }
}
