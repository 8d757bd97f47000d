import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

/** Each stage of the Dockerfile with the paths its COPY lines take from the build context (not from a stage). */
function contextCopies(dockerfile: string): { stage: string; sources: string[] }[] {
  const stages: { stage: string; sources: string[] }[] = [];
  for (const line of dockerfile.split('\n').map((text) => text.trim())) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.push({ stage: from[1] ?? `stage ${stages.length}`, sources: [] });
    if (!/^COPY\s/i.test(line) || /--from=/.test(line)) continue;
    const words = line
      .split(/\s+/)
      .slice(1)
      .filter((word) => !word.startsWith('--'));
    stages.at(-1)!.sources.push(...words.slice(0, -1));
  }
  return stages;
}

describe('the production image', () => {
  const stages = contextCopies(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));

  it('builds from the service sources alone, so its dist/ has no launcher, and ships the health check script alone besides', () => {
    expect(stages).toEqual([
      {
        stage: 'build',
        sources: [
          'package.json',
          'package-lock.json',
          'test/client-example/package.json',
          'nest-cli.json',
          'tsconfig.json',
          'tsconfig.build.json',
          'src',
          'libs',
        ],
      },
      // The final stage: everything else comes from the build stage (package.json, node_modules, dist).
      { stage: 'stage 1', sources: ['scripts/healthcheck.js'] },
    ]);
  });

  it('leaves the launcher out of the build context too', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    expect(ignored).toContain('tools');
  });
});
