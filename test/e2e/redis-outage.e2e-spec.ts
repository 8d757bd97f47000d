import { setTimeout as sleep } from 'node:timers/promises';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, isListening } from '../support/launcher-process';
import { until } from '../support/until';
import { WorkerProcess } from '../support/worker-process';

/** A private redis-server: this test stops it, which it must never do to the machine's. */
async function startRedis(port: number, dir: string): Promise<ChildProcess> {
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''], { stdio: 'ignore' });
  await until(() => isListening(port), Boolean, 10_000);
  return redis;
}

async function stopRedis(redis: ChildProcess): Promise<void> {
  if (redis.exitCode !== null) return;
  const exited = new Promise((resolve) => redis.once('exit', resolve));
  redis.kill('SIGKILL');
  await exited;
}

describe('a Redis outage, seen from a worker', () => {
  let dir: string;
  let redis: ChildProcess;
  let worker: WorkerProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lvs-redis-'));
  });
  afterAll(async () => {
    await worker?.kill();
    await stopRedis(redis);
    await rm(dir, { recursive: true, force: true });
  });

  it('logs one JSON warning while Redis is down and one line when it is back, and no stack trace', async () => {
    const port = await freePort();
    redis = await startRedis(port, dir);
    worker = await WorkerProcess.start({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      REDIS_PREFIX: 'outage',
      REGISTER_URL: 'http://127.0.0.1:9',
      WORKER_HTTP_PORT: '0',
      LOG_FORMAT: 'json',
    });
    await stopRedis(redis);
    await sleep(3000); // many reconnect attempts meanwhile
    redis = await startRedis(port, dir);
    await until(() => worker.log.includes('Redis reachable again'), Boolean, 10_000);

    const lines = worker.log.split('\n').filter(Boolean);
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([]);
    const redisLines = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.msg.startsWith('Redis '));
    expect(redisLines.map((line) => [line.level, line.msg.split(':')[0]])).toEqual([
      [40, 'Redis unreachable'],
      [30, 'Redis reachable again'],
    ]);
    expect(await (await fetch(`http://127.0.0.1:${worker.log.match(/on [\d.]+:(\d+)/)![1]}/health/ready`)).json()).toEqual({ status: 'ok' });
  }, 40_000);
});
