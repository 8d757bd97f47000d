import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const WORKER_ENTRY = join(__dirname, '../../dist/src/worker.js'); // test/support -> repo root
const API_ENTRY = join(__dirname, '../../dist/src/main.js');

/** The real worker entry point (built by `npm test`'s pretest) in its own process; the API's too, where a test kills one. */
export class WorkerProcess {
  private output = '';

  private constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  static async start(env: Record<string, string>, entry = WORKER_ENTRY, readyText = 'Worker running'): Promise<WorkerProcess> {
    const child = spawn(process.execPath, [entry], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker = new WorkerProcess(child);
    await worker.waitForOutput(readyText, 20_000);
    return worker;
  }

  /** The API entry point on a free port of 127.0.0.1; its base URL is read from its start-up line. */
  static async startApi(env: Record<string, string>): Promise<{ api: WorkerProcess; baseUrl: string }> {
    const api = await WorkerProcess.start({ ...env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'log' }, API_ENTRY, 'API listening on');
    const baseUrl = /API listening on (http:\/\/[^\s/]+)/.exec(api.log)?.[1];
    if (!baseUrl) throw new Error(`No URL in the API's output:\n${api.log}`);
    return { api, baseUrl };
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
