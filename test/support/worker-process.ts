import { join } from 'node:path';
import { ServiceProcess } from './service-process';

const WORKER_ENTRY = join(__dirname, '../../dist/src/worker.js'); // test/support -> repo root

/** The real worker entry point in its own process. */
export class WorkerProcess extends ServiceProcess {
  static start(env: Record<string, string>): Promise<WorkerProcess> {
    return ServiceProcess.spawn((child) => new WorkerProcess(child), WORKER_ENTRY, env, /Worker running/);
  }
}
