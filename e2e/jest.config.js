/**
 * The end-to-end suite's jest configuration: `npm run e2e` runs it against the stack it starts
 * (the root configuration, that `npm test` uses, only looks in test/).
 * @type {import('jest').Config}
 */
module.exports = {
  rootDir: '..',
  testEnvironment: 'node',
  roots: ['<rootDir>/e2e'],
  testMatch: ['**/*.e2e.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/e2e/tsconfig.json' }] },
  moduleNameMapper: {
    '^armada-cdk$': '<rootDir>/src/index.ts',
    '^armada-cdk/(cdk8s|pulumi|helmfile)$': '<rootDir>/src/$1/index.ts',
  },
  // Helm installs and readiness gates wait on the cluster; each test sets tighter deadlines itself.
  testTimeout: 300000,
  // One line per test: a run takes minutes, and which test is waiting is worth seeing.
  verbose: true,
};
