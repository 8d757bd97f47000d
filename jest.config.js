// Fast unit specs beside pure code, the Redis scripts against a real Redis, features' modules against real servers without
// HTTP (integration), black-box e2e specs against real
// services (also on other topologies), and resilience specs (generated hostile input, faults) against the real processes.
const swcTransform = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2023',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

// NestJS 12 and some of its dependencies ship only ES modules, which Jest requires natively only under
// Node's --experimental-vm-modules, on Node 24 too: SWC compiles exactly those packages (the ones whose
// package.json says "type": "module") to CommonJS instead.
const fs = require('node:fs');
const path = require('node:path');

function esmOnlyPackages() {
  const root = path.join(__dirname, 'node_modules');
  if (!fs.existsSync(root)) return [];
  const names = fs
    .readdirSync(root)
    .flatMap((entry) => (entry.startsWith('@') ? fs.readdirSync(path.join(root, entry)).map((inner) => `${entry}/${inner}`) : [entry]));
  return names.filter((name) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(root, name, 'package.json'), 'utf8')).type === 'module';
    } catch {
      return false;
    }
  });
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swcTransform, '^.+\\.m?js$': swcTransform },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnlyPackages().map(escapeRegExp).join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@lvs/register$': '<rootDir>/libs/register/src/index.ts',
    '^@lvs/register/production-url$': '<rootDir>/libs/register/src/production-url.ts',
    '^@lvs/register/register-identity$': '<rootDir>/libs/register/src/register-identity.ts',
    '^@lvs/register/register-errors$': '<rootDir>/libs/register/src/register-errors.ts',
    '^@lvs/register/name-search-form$': '<rootDir>/libs/register/src/name-search-form.ts',
    '^@lvs/register-sandbox$': '<rootDir>/libs/register-sandbox/src/index.ts',
    '^@lvs/register-sandbox/sandbox-address$': '<rootDir>/libs/register-sandbox/src/sandbox-address.ts',
    '^@lvs/test-register$': '<rootDir>/libs/test-register/src/index.ts',
    '^@lvs/client$': '<rootDir>/libs/client/src/index.ts',
    // libs/client is also built as ES modules, whose relative imports name the .js file that tsc emits.
    '^(\\.{1,2}/.+)\\.js$': '$1',
  },
};

// Which e2e files a project takes is declared in each file, by a tag in its first lines: @alone for files that need the
// whole machine (they run alone after the rest, which run three at a time: package.json), @topologies for the suites that
// run again on the production topologies. A file's name says nothing.
const E2E_DIR = path.join(__dirname, 'test', 'e2e');
function e2eTagged(tag) {
  return fs
    .readdirSync(E2E_DIR)
    .filter((file) => file.endsWith('.e2e-spec.ts'))
    .filter((file) => new RegExp(`@${tag}\\b`).test(fs.readFileSync(path.join(E2E_DIR, file), 'utf8').split('\n', 5).join('\n')))
    .map((file) => file.slice(0, -'.e2e-spec.ts'.length));
}
const ALONE = e2eTagged('alone');
const TOPOLOGIES = e2eTagged('topologies');

module.exports = {
  // A global option (projects cannot set it): e2e hooks start databases, servers and a worker process.
  testTimeout: 60000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts', '<rootDir>/tools/**/*.spec.ts', '<rootDir>/test/kubernetes/**/*.spec.ts'],
      moduleNameMapper: {
        ...shared.moduleNameMapper,
        // The Kubernetes schemas (test/kubernetes) are ES modules whose package exports offer only an "import"
        // condition, which Jest's require() never matches: each specifier is mapped to its file instead.
        '^@kubernetes-models/(base|validate)$': '<rootDir>/node_modules/@kubernetes-models/$1/dist/index.js',
        '^(kubernetes-models|@kubernetes-models/(?:apimachinery|keda))/(.+)$': '<rootDir>/node_modules/$1/$2.js',
      },
    },
    {
      // Every Lua script (the *.script.ts files of src) against the machine's Redis, with no Nest and no HTTP: seconds.
      ...shared,
      displayName: 'redis-scripts',
      testMatch: ['<rootDir>/test/redis-scripts/**/*.redis-spec.ts'],
    },
    {
      // The middle tier: features' real modules in a Nest testing module against PostgreSQL, Redis and the sandbox
      // register, no HTTP and no child process (test/support/integration-module.ts); each file its own database and prefix.
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.integration-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', `/test/e2e/(${ALONE.join('|')})\\.e2e-spec\\.ts$`],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      ...shared,
      displayName: 'e2e-alone',
      testMatch: [`<rootDir>/test/e2e/{${ALONE.join(',')}}.e2e-spec.ts`],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      // The suites tagged @topologies (flow, batches, monitoring) again, with the service on a 3-primary Redis Cluster and behind
      // PgBouncer in transaction mode (test/support/topology-setup.ts), as production platforms run it.
      ...shared,
      displayName: 'e2e-topologies',
      testMatch: [`<rootDir>/test/e2e/{${TOPOLOGIES.join(',')}}.e2e-spec.ts`],
      globalSetup: '<rootDir>/test/support/topology-setup.ts',
      globalTeardown: '<rootDir>/test/support/topology-teardown.ts',
    },
    {
      ...shared,
      displayName: 'resilience',
      testMatch: ['<rootDir>/test/resilience/**/*.resilience-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
