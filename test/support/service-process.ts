import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** An entry point of the build (`npm test`'s pretest builds it), run in its own process. */
export class ServiceProcess {
  private output = '';

  protected constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  /** Starts dist/<entry> and resolves once its output contains readyText. */
  static async spawn(entry: string, env: Record<string, string>, readyText: string): Promise<ServiceProcess> {
    const child = spawn(process.execPath, [join(__dirname, '../../dist', entry)], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(child);
    await service.waitForOutput(readyText, 20_000);
    return service;
  }

  get log(): string {
    return this.output;
  }

  /** SIGKILL: the process dies mid-work without any chance to clean up. */
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
