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

/** Each probe with the findings it must give: none for an allowed import. */
const CASES: { name: string; probe: Probe; findings: Finding[] }[] = [
  {
    name: 'a folder imports one of a lower layer',
    probe: { filePath: 'src/console/probe.ts', code: "import { ApiKeysService } from '../auth/api-keys.service';\nexport { ApiKeysService };\n" },
    findings: [],
  },
  {
    name: 'a folder imports one of a higher layer (the first step of a cycle)',
    probe: { filePath: 'src/auth/probe.ts', code: "import { ConsoleModule } from '../console/console.module';\nexport { ConsoleModule };\n" },
    findings: [{ ruleId: RESTRICTED, line: 1 }],
  },
  {
    name: 'a folder imports one of its own layer',
    probe: { filePath: 'src/config/probe.ts', code: "import { Metrics } from '../metrics/metrics';\nexport { Metrics };\n" },
    findings: [{ ruleId: RESTRICTED, line: 1 }],
  },
  {
    name: 'infrastructure imports a feature of a lower layer',
    probe: { filePath: 'src/health/probe.ts', code: "import { ipv6Groups } from '../network/ipv6';\nexport { ipv6Groups };\n" },
    findings: [{ ruleId: RESTRICTED, line: 1 }],
  },
  {
    name: 'a feature imports a face of the lookup road',
    probe: { filePath: 'src/verification/probe.ts', code: "import { LookupService } from '../lookups/lookup.service';\nexport { LookupService };\n" },
    findings: [],
  },
  {
    name: 'a feature imports an inside part of the lookup road',
    probe: { filePath: 'src/verification/probe.ts', code: "import { PendingLookups } from '../lookups/pending-lookups';\nexport { PendingLookups };\n" },
    findings: [{ ruleId: RESTRICTED, line: 1 }],
  },
  {
    name: 'a root imports anything',
    probe: {
      filePath: 'src/probe.ts',
      code: "import { PendingLookups } from './lookups/pending-lookups';\nimport { keyring } from './signing-secrets/keyring';\nexport { PendingLookups, keyring };\n",
    },
    findings: [],
  },
  {
    name: 'the data source imports an entity',
    probe: { filePath: 'src/database/data-source.ts', code: "import { ApiKey } from '../auth/api-key.entity';\nexport { ApiKey };\n" },
    findings: [],
  },
  {
    name: 'the data source imports a feature file that is no entity',
    probe: { filePath: 'src/database/data-source.ts', code: "import { ApiKeysService } from '../auth/api-keys.service';\nexport { ApiKeysService };\n" },
    findings: [
      { ruleId: RESTRICTED, line: 1 },
      { ruleId: RESTRICTED, line: 1 },
    ],
  },
  {
    name: 'another database file imports an entity',
    probe: { filePath: 'src/database/probe.ts', code: "import { ApiKey } from '../auth/api-key.entity';\nexport { ApiKey };\n" },
    findings: [
      { ruleId: RESTRICTED, line: 1 },
      { ruleId: RESTRICTED, line: 1 },
    ],
  },
  {
    name: 'a spec reaches past the boundaries to test a piece in place',
    probe: {
      filePath: 'src/validation/probe.spec.ts',
      code: "import { PendingLookups } from '../lookups/pending-lookups';\nexport { PendingLookups };\n",
    },
    findings: [],
  },
  {
    name: 'two files of one folder import each other',
    probe: { filePath: 'src/lookups/lookup-outcome.ts', code: "import { LookupService } from './lookup.service';\nexport { LookupService };\n" },
    findings: [{ ruleId: 'import-x/no-cycle', line: 1 }],
  },
  {
    name: 'a test reaches an inside part of the lookup road',
    probe: {
      filePath: 'test/support/probe.ts',
      code: "import { PendingLookups } from '../../src/lookups/pending-lookups';\nexport { PendingLookups };\n",
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
