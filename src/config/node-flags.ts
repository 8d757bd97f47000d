import { readFileSync } from 'node:fs';

export type NodeProcess = 'api' | 'worker';

/**
 * A process's Node and V8 flags: `config.apiNodeFlags` or `config.workerNodeFlags` in package.json, whose "//"
 * note gives each flag's reason. The npm scripts (and so the image) pass them as $npm_package_config_…; the
 * launcher and the bench read them here, so that every way of starting a process runs it with the same flags.
 */
export function readNodeFlags(packageJsonPath: string, processName: NodeProcess): string[] {
  const { config } = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { config?: Partial<Record<string, string>> };
  return (config?.[`${processName}NodeFlags`] ?? '').split(' ').filter((flag) => flag !== '');
}
