import { join } from 'node:path';
import { loadServedDocument } from './http';
import { ServiceProcess } from './service-process';

const API_ENTRY = join(__dirname, '../../dist/src/main.js'); // test/support -> repo root
const LISTENING = /API listening on ([\d.]+:\d+)/;

/** The real API entry point in its own process, listening on a free port of 127.0.0.1. */
export class ApiProcess extends ServiceProcess {
  private listeningUrl = '';

  get baseUrl(): string {
    return this.listeningUrl;
  }

  /**
   * `env` as for the worker (a TestApp's env), with LOG_LEVEL `log` or finer; a free port of 127.0.0.1
   * unless `env` names HOST and PORT. `whileStarting`: called once the output shows `seen`, before it listens.
   */
  static async start(
    env: Record<string, string>,
    { inspect = false, whileStarting }: { inspect?: boolean; whileStarting?: { seen: RegExp; then: () => void } } = {},
  ): Promise<ApiProcess> {
    const api = await ServiceProcess.spawn(
      (child) => new ApiProcess(child),
      API_ENTRY,
      { HOST: '127.0.0.1', PORT: '0', ...env, LOG_FORMAT: 'json' },
      whileStarting?.seen ?? LISTENING,
      inspect,
    );
    if (whileStarting) {
      whileStarting.then();
      await api.waitForOutput(LISTENING, 60_000);
    }
    api.listeningUrl = `http://${LISTENING.exec(api.log)![1]}`;
    // Answers are checked against the document this process serves: fetch it now, while it surely answers.
    await loadServedDocument(api.baseUrl);
    return api;
  }
}
