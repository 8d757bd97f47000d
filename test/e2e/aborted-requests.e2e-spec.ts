import { ApiProcess } from '../support/api-process';
import { exchangeRaw } from '../support/raw-http';
import { startTestApp, TestApp } from '../support/test-app';

describe('a client that disconnects mid-request (the real API process, its log read)', () => {
  let t: TestApp;
  let api: ApiProcess;

  beforeAll(async () => {
    t = await startTestApp();
    api = await ApiProcess.start({ ...t.env, LOG_LEVEL: 'debug' });
  });
  afterAll(async () => {
    await api?.stop();
    await t?.close();
  });

  it('is logged once per request at debug level, without a stack, and nothing is logged as an error', async () => {
    const aborts = 5;
    for (let i = 0; i < aborts; i++) {
      await exchangeRaw(
        api.baseUrl,
        (socket) => {
          socket.write(
            'POST /v1/licences/verify HTTP/1.1\r\nHost: x\r\nX-API-Key: lvs_whoever\r\n' +
              'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"licenceNumber":',
          );
          setTimeout(() => socket.destroy(), 100);
        },
        { waitMs: 300 },
      );
    }
    // pino's numeric levels: 20 debug, 40 warn, 50 error, 60 fatal.
    const line = /"level":20,.*"msg":"Client closed the connection before its request was read"/g;
    await api.waitForOutput(new RegExp(`(${line.source}[\\s\\S]*){${aborts}}`), 5000);
    expect(api.log.match(line)).toHaveLength(aborts);
    const lines = api.log.split('\n').filter((text) => text.trim() !== '');
    expect(lines.filter((text) => !text.startsWith('{'))).toEqual([]);
    expect(lines.filter((text) => /"level":(50|60)\b/.test(text))).toEqual([]);
    expect(api.log).not.toMatch(/Error: aborted|\bat \S+ \(/);
  });
});
