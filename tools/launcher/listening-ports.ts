/** A port a process of the stack will listen on, and the setting that moves it. */
export interface ListeningPort {
  port: number;
  host: string;
  /** the process, and how the port derives from the setting when it does not equal it */
  owner: string;
  setting: string;
}

interface PortSettings {
  HOST: string;
  PORT: number;
  WORKER_HTTP_PORT: number;
  WORKERS: number;
}

/**
 * The fixed ports the launcher's children will bind: the API's, each worker's operators' listener
 * (WORKER_HTTP_PORT, then the next ones) and the demo sandbox's. Port 0 (any free port) cannot clash.
 */
export function listeningPorts(settings: PortSettings, sandbox: { host: string; port: number } | null): ListeningPort[] {
  const ports: ListeningPort[] = [];
  if (settings.PORT !== 0) ports.push({ port: settings.PORT, host: settings.HOST, owner: 'the API', setting: 'PORT' });
  if (settings.WORKER_HTTP_PORT !== 0) {
    for (let index = 0; index < settings.WORKERS; index += 1) {
      ports.push({
        port: settings.WORKER_HTTP_PORT + index,
        host: settings.HOST,
        owner: `worker-${index + 1}'s operators' listener${index === 0 ? '' : `, WORKER_HTTP_PORT + ${index}`}`,
        setting: 'WORKER_HTTP_PORT',
      });
    }
  }
  if (sandbox && sandbox.port !== 0) ports.push({ ...sandbox, owner: 'the register sandbox', setting: 'SANDBOX_PORT' });
  return ports;
}

export function portInUseMessage(entry: ListeningPort): string {
  return `Port ${entry.port} is in use (${entry.owner}): set ${entry.setting} to a free port`;
}
