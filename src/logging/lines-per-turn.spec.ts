import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { LinesPerTurn } from './lines-per-turn';

describe('LinesPerTurn', () => {
  let dir: string;
  let file: string;
  let destination: ReturnType<typeof pino.destination>;
  let writes: string[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lines-per-turn-'));
    file = join(dir, 'out.log');
    // Synchronous, as the processes run it: an asynchronous write could still be pending when the file is read.
    destination = pino.destination({ dest: file, sync: true, mkdir: true });
    writes = [];
    const write = destination.write.bind(destination);
    destination.write = (text: string) => {
      writes.push(text);
      return write(text);
    };
  });

  afterEach(() => {
    destination.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('hands the lines of one turn to the writer as one write, in order', async () => {
    const lines = new LinesPerTurn(destination);
    lines.write('one\n');
    lines.write('two\n');
    lines.write('three\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['one\ntwo\nthree\n']);
    lines.write('four\n');
    await nextTurn();
    expect(writes).toEqual(['one\ntwo\nthree\n', 'four\n']);
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\nthree\nfour\n');
  });

  it('writes held lines at once on flushSync, as at exit', async () => {
    const lines = new LinesPerTurn(destination);
    lines.write('before exit\n');
    lines.flushSync();
    expect(readFileSync(file, 'utf8')).toBe('before exit\n');
    await nextTurn();
    expect(writes).toEqual(['before exit\n']);
  });
});
