import { RegisterOutageLog } from './register-outage-log';

function recordingLogger() {
  const lines: string[] = [];
  return { lines, warn: (message: string) => lines.push(`warn ${message}`), log: (message: string) => lines.push(`log ${message}`) };
}

const refused = { host: '127.0.0.1:4010', message: 'Register 127.0.0.1:4010 unreachable: connection refused (ECONNREFUSED)' };
const timeout = { host: '127.0.0.1:4010', message: 'Register 127.0.0.1:4010 unreachable: timeout (no answer within 4000 ms)' };

describe('RegisterOutageLog', () => {
  it('logs the first failure of an outage with its cause, none of the others, and one line when the register answers', () => {
    const logger = recordingLogger();
    const outages = new RegisterOutageLog(logger);
    outages.unreachable(refused);
    outages.unreachable(refused);
    outages.unreachable(timeout);
    outages.answered();
    outages.answered();
    outages.unreachable(timeout);
    expect(logger.lines).toEqual([
      'warn Register 127.0.0.1:4010 unreachable: connection refused (ECONNREFUSED); lookups are retried, and further failures to reach it are not logged until it answers again',
      'log Register 127.0.0.1:4010 answering again',
      'warn Register 127.0.0.1:4010 unreachable: timeout (no answer within 4000 ms); lookups are retried, and further failures to reach it are not logged until it answers again',
    ]);
  });

  it('says nothing while the register answers', () => {
    const logger = recordingLogger();
    const outages = new RegisterOutageLog(logger);
    outages.answered();
    expect(logger.lines).toEqual([]);
  });
});
