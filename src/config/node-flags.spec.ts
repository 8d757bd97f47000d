import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readApiNodeFlags } from './node-flags';

const PACKAGE_JSON = join(__dirname, '../../package.json');

describe('readApiNodeFlags', () => {
  it("reads the project's API flags from package.json", () => {
    expect(readApiNodeFlags(PACKAGE_JSON)).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('gives each flag a reason in the "//" note beside it', () => {
    const { '//': note } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { '//': Record<string, string | undefined> };
    expect(readApiNodeFlags(PACKAGE_JSON).filter((flag) => !note[flag])).toEqual([]);
  });

  it('runs with each flag on this Node: none is unknown to it', () => {
    const run = spawnSync(process.execPath, [...readApiNodeFlags(PACKAGE_JSON), '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect([run.status, run.stderr]).toEqual([0, '']);
  });

  it('reads several flags, and none when package.json names none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-flags-'));
    try {
      const file = join(dir, 'package.json');
      writeFileSync(file, JSON.stringify({ config: { apiNodeFlags: '--a  --b=1' } }));
      expect(readApiNodeFlags(file)).toEqual(['--a', '--b=1']);
      writeFileSync(file, JSON.stringify({ name: 'x' }));
      expect(readApiNodeFlags(file)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
