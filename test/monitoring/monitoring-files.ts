import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export const repository = join(__dirname, '..', '..');
export const readRepositoryFile = (path: string): string => readFileSync(join(repository, path), 'utf8');

export const RULES = 'deploy/prometheus/rules.yml';

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
export interface RuleGroups {
  groups: { name: string; rules: AlertRule[] }[];
}

/** deploy/prometheus/rules.yml as parsed. */
export const ruleGroups = (): RuleGroups => parse(readRepositoryFile(RULES)) as RuleGroups;

/** promtool (Debian's prometheus package, which .ci/run installs), run in the repository. */
export function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { cwd: repository, encoding: 'utf8', timeout: 60_000 });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
