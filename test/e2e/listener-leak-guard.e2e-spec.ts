import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../support/service-process';

/** A stand-in service: `script` runs, then it says it is ready and waits to be stopped. */
class ScriptProcess extends ServiceProcess {
  static run(entry: string): Promise<ScriptProcess> {
    return ServiceProcess.spawn((child) => new ScriptProcess(child), entry, {}, /ready/);
  }
}

// Every spec stops its processes through ServiceProcess.stop: a listener leak in any of them fails that spec.
describe('the listener-leak guard of the process helper', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lvs-leak-guard-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const entry = (name: string, listeners: number) => {
    const path = join(dir, `${name}.js`);
    writeFileSync(
      path,
      `const emitter = new (require('node:events').EventEmitter)();
       for (let i = 0; i < ${listeners}; i++) emitter.on('tick', () => undefined);
       setImmediate(() => console.log('ready'));
       setInterval(() => undefined, 1000);`,
    );
    return path;
  };

  it('fails the stop of a process that warned MaxListenersExceededWarning, naming the warning', async () => {
    const leaking = await ScriptProcess.run(entry('leaking', 11));
    await expect(leaking.stop()).rejects.toThrow(/listener leak: .*MaxListenersExceededWarning: Possible EventEmitter memory leak detected/);
  });

  it('stops a process with listeners within the limit quietly', async () => {
    const quiet = await ScriptProcess.run(entry('quiet', 10));
    await expect(quiet.stop()).resolves.toBeUndefined();
  });
});
