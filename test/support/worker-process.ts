import { ServiceProcess } from './service-process';

/** The real worker entry point in its own process. */
export type WorkerProcess = ServiceProcess;

export const WorkerProcess = {
  start: (env: Record<string, string>): Promise<WorkerProcess> =>
    ServiceProcess.spawn('src/worker.js', env, 'Worker running'),
};
