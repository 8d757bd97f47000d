// Two projects: fast unit specs beside pure code, and black-box e2e specs against real services.
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

const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swcTransform },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@lvs/register$': '<rootDir>/libs/register/src/index.ts',
    '^@lvs/register-sandbox$': '<rootDir>/libs/register-sandbox/src/index.ts',
  },
};

module.exports = {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts'],
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      testTimeout: 60000,
    },
  ],
};
