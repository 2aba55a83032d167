/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', {}] },
  moduleNameMapper: {
    '^armada-cdk$': '<rootDir>/src/index.ts',
    '^armada-cdk/(cdk8s|pulumi|helmfile)$': '<rootDir>/src/$1/index.ts',
  },
  // One build of the CLI per run, shared by the tests that run it as a package (test/helpers/cli-package.ts).
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 60000,
};
