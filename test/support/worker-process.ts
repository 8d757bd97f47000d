import { join } from 'node:path';
import { ServiceProcess } from './service-process';

const WORKER_ENTRY = join(__dirname, '../../dist/src/worker.js'); // test/support -> repo root

/** The real worker entry point in its own process. */
export class WorkerProcess extends ServiceProcess {
  /** With `inspect`, the process opens the inspector (see ServiceProcess.collectGarbage). */
  static start(env: Record<string, string>, { inspect = false } = {}): Promise<WorkerProcess> {
    return ServiceProcess.spawn((child) => new WorkerProcess(child), WORKER_ENTRY, env, /Worker running/, inspect);
  }
}
