/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', {}] },
  moduleNameMapper: {
    '^armada-cdk$': '<rootDir>/src/index.ts',
    '^armada-cdk/(cdk8s|pulumi)$': '<rootDir>/src/$1/index.ts',
  },
  testTimeout: 60000,
};
