// @ts-check
import path from 'node:path';
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const SRC = path.join(import.meta.dirname, 'src');
const folder = (name) => `${SRC}/${name}/**`;

/**
 * The folders of src/, lowest layer first. A folder imports only folders of lower layers, so no two folders can
 * import each other, however indirectly. An import the layers refuse means moving the importing folder up a layer;
 * if that is impossible, the import would close a cycle. The roots (files directly in src/) import anything.
 */
export const LAYERS = [
  ['clock', 'config', 'metrics', 'network', 'tracing'],
  ['database'],
  ['errors', 'logging', 'secrets'],
  ['http', 'redis'],
  ['health', 'rate-limit', 'validation'],
  ['common', 'activity', 'people'],
  ['auth'],
  ['members'],
  ['events', 'quota'],
  // Verification records, from the answer's record to its receipt: they name who answered (auth, members) and refund a charge (quota).
  ['verification-records'],
  ['lookups', 'webhooks'],
  ['verification', 'register-watch'],
  ['holders'],
  ['batches', 'watchlist'],
  ['console', 'test-mode'],
  // The operator console: it reuses the partner console's cookies, sessions' rules, answers and assets.
  ['operator-console'],
  // The operators' listener: it serves the operator console's pages beside /metrics and the queue dashboard.
  ['operator'],
  // The operator's commands: they compose what every module exports, and nothing imports them.
  ['cli'],
];

/** Folders that serve every feature and so import none: where they need a feature, they define a token it provides. */
export const INFRASTRUCTURE = [
  'config',
  'errors',
  'clock',
  'database',
  'redis',
  'logging',
  'metrics',
  'http',
  'health',
  'validation',
  'common',
  'secrets',
  'tracing',
];

/** What the rest of src/ may import of the lookup road: its modules, its service and the types they answer with. */
export const LOOKUPS_FACES = [
  'lookups.module',
  'lookups-worker.module',
  'lookup.service',
  'lookup-subject',
  'lookup-request',
  'lookup-outcome',
  'lookup-jobs',
  'production-register-warning',
  'canary-store',
  'page-shape-store',
  'page-shapes.module',
];

/** The zones of import-x/no-restricted-paths for src/. */
export function boundaryZones() {
  const features = LAYERS.flat().filter((name) => !INFRASTRUCTURE.includes(name));
  const layerZones = LAYERS.flatMap((layer, index) =>
    layer.map((name) => ({
      target: folder(name),
      from: LAYERS.slice(index)
        .flat()
        .filter((other) => other !== name)
        .map(folder),
      message: `src/${name} is in layer ${index + 1} of LAYERS (eslint.config.mjs) and imports only folders of lower layers.`,
    })),
  );
  const infrastructureZones = INFRASTRUCTURE.map((name) => ({
    target: folder(name),
    from: features.map(folder),
    message: `src/${name} is infrastructure and imports no feature: define a token that the feature provides.`,
  }));
  const lookupsZone = {
    target: `${SRC}/!(lookups)/**`,
    from: folder('lookups'),
    except: [`${SRC}/lookups/{${LOOKUPS_FACES.join(',')}}.ts`],
    message: 'Outside src/lookups, only the faces of the lookup road are imported (LOOKUPS_FACES, eslint.config.mjs).',
  };
  // The top layer has nothing above it to refuse.
  return [...layerZones.filter((zone) => zone.from.length > 0), ...infrastructureZones, lookupsZone];
}

/** The service answers test mode from the test register's data, never from the stand-in server's package. */
const SANDBOX_IMPORT = { group: ['@lvs/register-sandbox', '@lvs/register-sandbox/*'], message: 'src imports the data from @lvs/test-register.' };
/** Settings are read and validated once per process, by its entry point; everything else gets them from AppConfig. */
const READ_SETTINGS_IMPORT = {
  group: ['**/config/read-settings', './read-settings'],
  importNames: ['readSettings'],
  message: 'Only an entry point reads the settings (ENTRY_POINTS, eslint.config.mjs); inject AppConfig instead.',
};
const VALIDATE_ENVIRONMENT_IMPORT = {
  group: ['**/config/env.schema', './env.schema'],
  importNames: ['validateEnvironment'],
  message: 'Only readSettings validates the environment.',
};
const ENTRY_POINTS = ['src/main.ts', 'src/worker.ts', 'src/cli/admin.cli.ts', 'src/cli/migrate.cli.ts', 'src/cli/openapi-document.cli.ts'];

function restrictedImportBlocks() {
  const refuse = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
  return [
    { files: ['src/**/*.ts'], rules: refuse(SANDBOX_IMPORT, READ_SETTINGS_IMPORT, VALIDATE_ENVIRONMENT_IMPORT) },
    { files: ENTRY_POINTS, rules: refuse(SANDBOX_IMPORT, VALIDATE_ENVIRONMENT_IMPORT) },
    { files: ['src/config/read-settings.ts'], rules: refuse(SANDBOX_IMPORT, READ_SETTINGS_IMPORT) },
    // Specs build settings as a process would, to test what reads them.
    { files: ['src/**/*.spec.ts'], rules: refuse(SANDBOX_IMPORT) },
  ];
}

export default tseslint.config(
  // The client example's code is generated from the OpenAPI document.
  { ignores: ['dist/', 'test/client-example/', 'libs/client/dist/', 'libs/client/src/generated/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['{src,libs,tools,test}/**/*.ts'],
    extends: [eslint.configs.recommended, ...tseslint.configs.recommendedTypeChecked, importX.flatConfigs.typescript, prettier],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver()] },
    rules: {
      // Cycles through node_modules are not ours to fix, and following them triples the rule's time.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // A leading underscore names what is left out on purpose (`{ dateOfBirth: _dateOfBirth, ...shown }`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Servers' handlers refer to the object built from the server after it: `let` declared before, assigned once.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // An async function with nothing to wait for still answers the promise its callers and types expect.
      '@typescript-eslint/require-await': 'off',
      // Passing on a rejection or error as it was caught (unknown) keeps it whole; wrapping it would hide its type.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    // Specs read answers, logs and documents as parsed JSON and assert them whole with toEqual: the assertion is their
    // type check, and a declared type for every body would only restate it.
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Module boundaries hold for what ships; specs may reach past them to test a piece in place.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: boundaryZones() }] },
  },
  // Imports refused in src. A later block for fewer files names them all again: a rule's options are replaced, not merged.
  ...restrictedImportBlocks(),
);
