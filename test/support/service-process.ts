import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const DIST = join(__dirname, '../../dist/src'); // test/support -> repo root
const ENTRIES = {
  api: { path: join(DIST, 'main.js'), ready: 'API listening' },
  worker: { path: join(DIST, 'worker.js'), ready: 'Worker running' },
};

/** A real entry point (built by `npm test`'s pretest), API or worker, in its own process. */
export class ServiceProcess {
  private output = '';

  private constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  static async start(role: keyof typeof ENTRIES, env: Record<string, string>): Promise<ServiceProcess> {
    const child = spawn(process.execPath, [ENTRIES[role].path], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(child);
    await service.waitForOutput(ENTRIES[role].ready, 20_000);
    return service;
  }

  get exited(): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve(this.child.exitCode);
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Sends a signal without waiting for the exit. */
  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  get log(): string {
    return this.output;
  }

  /** SIGKILL: the process dies mid-job without any chance to clean up. */
  kill(): Promise<void> {
    return this.stop('SIGKILL');
  }

  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill(signal);
    });
  }

  private waitForOutput(text: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Process did not start:\n${this.output}`)), timeoutMs);
      const check = () => {
        if (this.output.includes(text)) {
          clearTimeout(timer);
          this.child.stdout?.off('data', check);
          resolve();
        }
      };
      this.child.stdout?.on('data', check);
      this.child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Process exited with ${code}:\n${this.output}`));
      });
      check();
    });
  }
}
