import { ServiceProcess } from './service-process';

/** The real API entry point in its own process, on a port the system picked. */
export interface ApiProcess {
  process: ServiceProcess;
  baseUrl: string;
}

export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const process = await ServiceProcess.spawn('src/main.js', { ...env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'log' }, 'API listening');
  const url = /API listening on (http:\/\/[^\s"]+)/.exec(process.log)?.[1];
  if (!url) throw new Error(`No URL in the API's output:\n${process.log}`);
  return { process, baseUrl: url.replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1') };
}
