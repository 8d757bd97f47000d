import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The import rules of src/, read from the files themselves: no import cycle between folders, and
 * infrastructure imports no feature. The roots (files directly in src/) may import anything.
 */
const SRC = __dirname;
const INFRASTRUCTURE = new Set(['config', 'errors', 'clock', 'database', 'redis', 'logging', 'metrics', 'http', 'health', 'validation']);
const ALLOWED = [
  // The DataSource lists every table for the API, the worker and the command-line tools alike.
  { from: 'database/data-source.ts', to: /\.entity$/ },
];

interface Import {
  file: string;
  target: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Every relative import of every non-spec file, as paths relative to src/ (target without extension). */
function relativeImports(): Import[] {
  const pattern = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;
  return sourceFiles(SRC).flatMap((path) => {
    const file = relative(SRC, path).split(sep).join('/');
    return [...readFileSync(path, 'utf8').matchAll(pattern)].map((match) => ({
      file,
      target: relative(SRC, resolve(dirname(path), match[1])).split(sep).join('/'),
    }));
  });
}

/** The folder directly under src/ that a path belongs to; '' for the roots. */
function folderOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.indexOf('/')) : '';
}

/** Edges between folders, each with one import that makes it. */
function folderEdges(imports: Import[]): Map<string, Map<string, Import>> {
  const edges = new Map<string, Map<string, Import>>();
  for (const found of imports) {
    const from = folderOf(found.file);
    const to = folderOf(found.target);
    if (from === '' || to === '' || from === to) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, found);
  }
  return edges;
}

/** Every cycle between folders, each written as a path a -> b -> ... -> a with the imports behind it. */
function folderCycles(edges: Map<string, Map<string, Import>>): string[] {
  const cycles: string[] = [];
  const seen = new Set<string>();
  const visit = (folder: string, path: string[]) => {
    for (const [next, via] of edges.get(folder) ?? []) {
      const start = path.indexOf(next);
      if (start >= 0) {
        const cycle = [...path.slice(start), next];
        const key = [...cycle.slice(0, -1)].sort().join(',');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(`${cycle.join(' -> ')} (last step: ${via.file} imports ${via.target})`);
        }
      } else {
        visit(next, [...path, next]);
      }
    }
  };
  for (const folder of edges.keys()) visit(folder, [folder]);
  return cycles;
}

/**
 * What the rest of src/ may import of the lookup road: its module and service, and the types of what they answer. The
 * queue, pending lists, live places, payers, settlement, cache and breaker stay inside src/lookups/.
 */
const LOOKUPS_FACES = new Set(['lookups.module', 'lookups-worker.module', 'lookup.service', 'lookup-subject', 'lookup-outcome', 'lookups.queue', 'production-register-warning']);

const isAllowed = ({ file, target }: Import) => ALLOWED.some((allowed) => allowed.from === file && allowed.to.test(target));

describe('imports between the folders of src/', () => {
  const everyImport = relativeImports();
  const imports = everyImport.filter((found) => !isAllowed(found));

  it('still needs every exception it allows', () => {
    const unused = ALLOWED.filter((allowed) => !everyImport.some(({ file, target }) => allowed.from === file && allowed.to.test(target)));
    expect(unused).toEqual([]);
  });

  it('finds the imports it checks (a reader that found none would pass anything)', () => {
    expect(imports).toContainEqual({ file: 'batches/batches.module.ts', target: 'lookups/lookups.module' });
    expect(imports.filter((found) => folderOf(found.file) === 'health').length).toBeGreaterThan(0);
  });

  it('has no import cycle between folders', () => {
    expect(folderCycles(folderEdges(imports))).toEqual([]);
  });

  it('lets nothing outside src/lookups/ reach past the faces of the lookup road', () => {
    // The roots (entry points) may import anything, as everywhere.
    const inside = imports.filter(
      ({ file, target }) => folderOf(target) === 'lookups' && !['lookups', ''].includes(folderOf(file)) && !LOOKUPS_FACES.has(target.slice('lookups/'.length)),
    );
    expect(inside.map(({ file, target }) => `${file} imports ${target}`)).toEqual([]);
  });

  it('lets no infrastructure folder import a feature', () => {
    const upward = imports.filter(({ file, target }) => {
      const from = folderOf(file);
      const to = folderOf(target);
      return INFRASTRUCTURE.has(from) && to !== '' && !INFRASTRUCTURE.has(to);
    });
    expect(upward.map(({ file, target }) => `${file} imports ${target}`)).toEqual([]);
  });
});

describe('folderCycles', () => {
  const edge = (file: string, target: string): [string, Import] => [folderOf(target), { file, target }];

  it('finds a cycle of two folders', () => {
    const edges = new Map([
      ['a', new Map([edge('a/x.ts', 'b/y')])],
      ['b', new Map([edge('b/y.ts', 'a/z')])],
    ]);
    expect(folderCycles(edges)).toEqual(['a -> b -> a (last step: b/y.ts imports a/z)']);
  });

  it('finds a cycle through three folders once', () => {
    const edges = new Map([
      ['a', new Map([edge('a/x.ts', 'b/y')])],
      ['b', new Map([edge('b/y.ts', 'c/z')])],
      ['c', new Map([edge('c/z.ts', 'a/x')])],
    ]);
    expect(folderCycles(edges)).toHaveLength(1);
  });

  it('finds none in a chain', () => {
    const edges = new Map([
      ['a', new Map([edge('a/x.ts', 'b/y')])],
      ['b', new Map([edge('b/y.ts', 'c/z')])],
    ]);
    expect(folderCycles(edges)).toEqual([]);
  });
});
