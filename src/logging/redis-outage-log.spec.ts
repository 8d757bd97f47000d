import { EventEmitter } from 'node:events';
import { RedisOutageLog } from './redis-outage-log';

function recordingLogger() {
  const lines: string[] = [];
  return { lines, warn: (message: string) => lines.push(`warn ${message}`), log: (message: string) => lines.push(`log ${message}`) };
}

describe('RedisOutageLog', () => {
  it('logs one warning per outage however many errors, and one line when Redis is back', () => {
    const logger = recordingLogger();
    const outages = new RedisOutageLog(logger);
    const [client, queue] = [new EventEmitter(), new EventEmitter()];
    outages.watch(client);
    outages.watch(queue);
    client.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    queue.emit('error', new Error('Connection is closed.'));
    client.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    client.emit('ready');
    client.emit('ready');
    queue.emit('error', new Error('read ECONNRESET'));
    expect(logger.lines).toEqual([
      'warn Redis unreachable: connect ECONNREFUSED 127.0.0.1:6379; further Redis errors are not logged until it is back',
      'log Redis reachable again',
      'warn Redis unreachable: read ECONNRESET; further Redis errors are not logged until it is back',
    ]);
  });

  it('says nothing when Redis is ready without an outage', () => {
    const logger = recordingLogger();
    const client = new EventEmitter();
    new RedisOutageLog(logger).watch(client);
    client.emit('ready');
    expect(logger.lines).toEqual([]);
  });
});
