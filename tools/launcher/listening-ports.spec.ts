import { listeningPorts, portInUseMessage } from './listening-ports';

const DEFAULTS = { HOST: '0.0.0.0', PORT: 3000, WORKER_HTTP_PORT: 3001, WORKERS: 1 };

describe('listeningPorts', () => {
  it("lists the API's port, each worker's and the demo sandbox's, with the setting that moves each", () => {
    expect(listeningPorts({ ...DEFAULTS, WORKERS: 2 }, { host: '127.0.0.1', port: 4010 })).toEqual([
      { port: 3000, host: '0.0.0.0', owner: 'the API', setting: 'PORT' },
      { port: 3001, host: '0.0.0.0', owner: "worker-1's operators' listener", setting: 'WORKER_HTTP_PORT' },
      { port: 3002, host: '0.0.0.0', owner: "worker-2's operators' listener, WORKER_HTTP_PORT + 1", setting: 'WORKER_HTTP_PORT' },
      { port: 4010, host: '127.0.0.1', owner: 'the register sandbox', setting: 'SANDBOX_PORT' },
    ]);
  });

  it('leaves out what picks a free port (0), and the sandbox outside the demo', () => {
    expect(listeningPorts({ ...DEFAULTS, PORT: 0, WORKERS: 3, WORKER_HTTP_PORT: 0 }, { host: '127.0.0.1', port: 0 })).toEqual([]);
    expect(listeningPorts(DEFAULTS, null).map((entry) => entry.setting)).toEqual(['PORT', 'WORKER_HTTP_PORT']);
  });
});

describe('portInUseMessage', () => {
  it('names the port, who wanted it and the setting to change', () => {
    const [, worker] = listeningPorts(DEFAULTS, null);
    expect(portInUseMessage(worker)).toBe("Port 3001 is in use (worker-1's operators' listener): set WORKER_HTTP_PORT to a free port");
  });
});
