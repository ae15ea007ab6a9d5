// Shared jest settings: TypeScript through ts-jest, tests under test/ (unit and integration alike).
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: '<rootDir>/tsconfig.json' }] },
  testTimeout: 30_000,
  passWithNoTests: false,
};
