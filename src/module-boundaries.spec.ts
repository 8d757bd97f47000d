import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The module-boundary and import-cycle rules of eslint.config.mjs, each shown refusing an import that breaks it and
 * letting its exceptions through. Each probe is a source text linted as if it were a file at its path; the config is
 * the project's own, read by ESLint in a child process (ESLint loads it as an ES module, which Jest's require cannot).
 */
interface Probe {
  filePath: string;
  code: string;
}

interface Finding {
  ruleId: string;
  line: number;
}

const ROOT = join(__dirname, '..');

// Type information is switched off for the probes: the rules under test need none, and a probe is no file of the
// TypeScript project. Only the import rules run, so that another rule's finding cannot pass for theirs.
const LINT = `
const { ESLint } = require('eslint');
const tseslint = require('typescript-eslint');
const { pathToFileURL } = require('node:url');
const probes = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: tseslint.configs.disableTypeChecked,
  ruleFilter: ({ ruleId }) => ruleId.startsWith('import-x/'),
});
(async () => {
  const findings = [];
  for (const { filePath, code } of probes) {
    const [result] = await eslint.lintText(code, { filePath, warnIgnored: true });
    findings.push(result.messages.map(({ ruleId, line }) => ({ ruleId, line })));
  }
  const { LAYERS } = await import(pathToFileURL('eslint.config.mjs').href);
  process.stdout.write(JSON.stringify({ findings, layers: LAYERS }));
})();
`;

function lint(probes: Probe[]): { findings: Finding[][]; layers: string[][] } {
  const output = execFileSync(process.execPath, ['-e', LINT], { cwd: ROOT, input: JSON.stringify(probes), encoding: 'utf8' });
  return JSON.parse(output) as { findings: Finding[][]; layers: string[][] };
}

const RESTRICTED = 'import-x/no-restricted-paths';

/** A probe file's source: one import and its re-export, so that the import is used. */
const probeImport = (name: string, from: string): string => `import { ${name} } from '${from}';\nexport { ${name} };\n`;

/** A part of the lookup road that is no face of it (LOOKUPS_FACES), as a path from src/: the import the rules refuse. */
const INSIDE_LOOKUPS = ['lookups', 'pending-lookups'].join('/');

/** Each probe with the findings it must give: none for an allowed import. */
const CASES: { name: string; probe: Probe; findings: Finding[] }[] = [
  {
    name: 'a folder imports one of a lower layer',
    probe: { filePath: 'src/console/probe.ts', code: probeImport('ApiKeysService', '../auth/api-keys.service') },
    findings: [],
  },
  {
    name: 'a folder imports one of a higher layer (the first step of a cycle)',
    probe: { filePath: 'src/auth/probe.ts', code: probeImport('ConsoleModule', '../console/console.module') },
    findings: [{ ruleId: RESTRICTED, line: 1 }],
  },
  {
    name: 'a folder imports one of its own layer',
    probe: { filePath: 'src/config/probe.ts', code: probeImport('Metrics', '../metrics/metrics') },
    findings: [{ ruleId: RESTRICTED, line: 1 }],
  },
  {
    name: 'infrastructure imports a feature of a lower layer',
    probe: { filePath: 'src/health/probe.ts', code: probeImport('ipv6Groups', '../network/ipv6') },
    findings: [{ ruleId: RESTRICTED, line: 1 }],
  },
  {
    name: 'a feature imports a face of the lookup road',
    probe: { filePath: 'src/verification/probe.ts', code: probeImport('LookupService', '../lookups/lookup.service') },
    findings: [],
  },
  {
    name: 'a feature imports an inside part of the lookup road',
    probe: { filePath: 'src/verification/probe.ts', code: probeImport('PendingLookups', `../${INSIDE_LOOKUPS}`) },
    findings: [{ ruleId: RESTRICTED, line: 1 }],
  },
  {
    name: 'a root imports anything',
    probe: {
      filePath: 'src/probe.ts',
      code: `import { PendingLookups } from './${INSIDE_LOOKUPS}';\nimport { keyring } from './secrets/keyring';\nexport { PendingLookups, keyring };\n`,
    },
    findings: [],
  },
  {
    name: 'the data source imports a feature entity (modules register their own with forFeature)',
    probe: { filePath: 'src/database/data-source.ts', code: probeImport('ApiKey', '../auth/api-key.entity') },
    findings: [
      { ruleId: RESTRICTED, line: 1 },
      { ruleId: RESTRICTED, line: 1 },
    ],
  },
  {
    name: 'a spec reaches past the boundaries to test a piece in place',
    probe: {
      filePath: 'src/validation/probe.spec.ts',
      code: probeImport('PendingLookups', `../${INSIDE_LOOKUPS}`),
    },
    findings: [],
  },
  {
    name: 'two files of one folder import each other',
    probe: { filePath: 'src/lookups/lookup-outcome.ts', code: probeImport('LookupService', './lookup.service') },
    findings: [{ ruleId: 'import-x/no-cycle', line: 1 }],
  },
  {
    name: 'a test reaches an inside part of the lookup road',
    probe: {
      filePath: 'test/support/probe.ts',
      code: probeImport('PendingLookups', `../../src/${INSIDE_LOOKUPS}`),
    },
    findings: [],
  },
];

describe('module boundaries (eslint.config.mjs)', () => {
  const { findings: found, layers } = lint(CASES.map(({ probe }) => probe));

  it.each(CASES.map((testCase, index) => ({ ...testCase, index })))('$name', ({ index, findings }) => {
    expect(found[index]).toEqual(findings);
  });

  it('places every folder of src/ in exactly one layer (a folder left out would be bound by no layer)', () => {
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(layers.flat().sort()).toEqual(folders.sort());
  });
});
