import { EventEmitter } from 'node:events';
import { RedisOutageLog } from './redis-outage-log';

function recordingLogger() {
  const lines: string[] = [];
  return { lines, warn: (message: string) => lines.push(`warn ${message}`), log: (message: string) => lines.push(`log ${message}`) };
}

class FakeQueue extends EventEmitter {
  constructor(readonly client: EventEmitter) {
    super();
  }
  getBackend() {
    return { client: Promise.resolve(this.client) };
  }
}

describe('RedisOutageLog', () => {
  it('logs one warning per outage however many clients fail, and one line when all are back', () => {
    const logger = recordingLogger();
    const outages = new RedisOutageLog(logger);
    const [first, second] = [new EventEmitter(), new EventEmitter()];
    outages.watchClient(first);
    outages.watchClient(second);
    first.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    second.emit('error', new Error('Connection is closed.'));
    first.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    first.emit('ready');
    second.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    second.emit('ready');
    first.emit('ready');
    second.emit('error', new Error('read ECONNRESET'));
    expect(logger.lines).toEqual([
      'warn Redis unreachable: connect ECONNREFUSED 127.0.0.1:6379; further Redis errors are not logged until it is back',
      'log Redis reachable again',
      'warn Redis unreachable: read ECONNRESET; further Redis errors are not logged until it is back',
    ]);
  });

  it("follows a queue through its client, and takes the queue's own error events without logging them", async () => {
    const logger = recordingLogger();
    const client = new EventEmitter();
    const queue = new FakeQueue(client);
    new RedisOutageLog(logger).watchQueue(queue);
    await queue.getBackend().client;
    expect(queue.emit('error', new Error('repeated by the queue'))).toBe(true);
    client.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    client.emit('ready');
    expect(logger.lines).toEqual([
      'warn Redis unreachable: connect ECONNREFUSED 127.0.0.1:6379; further Redis errors are not logged until it is back',
      'log Redis reachable again',
    ]);
  });

  it('says nothing when a client is ready without an outage', () => {
    const logger = recordingLogger();
    const client = new EventEmitter();
    new RedisOutageLog(logger).watchClient(client);
    client.emit('ready');
    expect(logger.lines).toEqual([]);
  });
});
