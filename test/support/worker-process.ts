import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const WORKER_ENTRY = join(__dirname, '../../dist/src/worker.js'); // test/support -> repo root

/** The real worker entry point (built by `npm test`'s pretest) in its own process. */
export class WorkerProcess {
  private output = '';

  private constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  static async start(env: Record<string, string>): Promise<WorkerProcess> {
    const child = spawn(process.execPath, [WORKER_ENTRY], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker = new WorkerProcess(child);
    await worker.waitForOutput('Worker running', 20_000);
    return worker;
  }

  get log(): string {
    return this.output;
  }

  /** SIGKILL: the worker dies mid-job without any chance to clean up. */
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
      const timer = setTimeout(() => reject(new Error(`Worker did not start:\n${this.output}`)), timeoutMs);
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
        reject(new Error(`Worker exited with ${code}:\n${this.output}`));
      });
      check();
    });
  }
}
