import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNodeFlags } from './node-flags';

const PACKAGE_JSON = join(__dirname, '../../package.json');
const ALL_FLAGS = [...readNodeFlags(PACKAGE_JSON, 'api'), ...readNodeFlags(PACKAGE_JSON, 'worker')];

describe('readNodeFlags', () => {
  it("reads each process's flags from package.json", () => {
    expect(readNodeFlags(PACKAGE_JSON, 'api')).toEqual(['--max-semi-space-size=8', '--heap-growing-percent=25', '--no-allocation-site-pretenuring']);
    expect(readNodeFlags(PACKAGE_JSON, 'worker')).toEqual(['--max-semi-space-size=4', '--heap-growing-percent=25']);
  });

  it('gives each flag a reason in the "//" note beside it', () => {
    const { '//': note } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { '//': Record<string, string | undefined> };
    expect(ALL_FLAGS.filter((flag) => !note[flag])).toEqual([]);
  });

  it('runs with each flag on this Node: none is unknown to it', () => {
    const run = spawnSync(process.execPath, [...new Set(ALL_FLAGS), '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect([run.status, run.stderr]).toEqual([0, '']);
  });

  it('reads several flags, and none when package.json names none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-flags-'));
    try {
      const file = join(dir, 'package.json');
      writeFileSync(file, JSON.stringify({ config: { apiNodeFlags: '--a  --b=1' } }));
      expect([readNodeFlags(file, 'api'), readNodeFlags(file, 'worker')]).toEqual([['--a', '--b=1'], []]);
      writeFileSync(file, JSON.stringify({ name: 'x' }));
      expect(readNodeFlags(file, 'api')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
