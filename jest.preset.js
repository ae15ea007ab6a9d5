// Shared jest settings: TypeScript through ts-jest, tests under test/ (unit and integration alike).
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Transpile only (isolatedModules): type errors are the typecheck task's job, tests stay fast.
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: require.resolve('./tsconfig.jest.json') }] },
  testTimeout: 30_000,
  passWithNoTests: false,
};
