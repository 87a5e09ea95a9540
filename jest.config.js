/** One Jest for every suite. Sources import siblings as `./x.ts`; ts-jest emits `./x.js`, mapped back here. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'node10', isolatedModules: true, allowImportingTsExtensions: true, rewriteRelativeImportExtensions: true, esModuleInterop: true, resolveJsonModule: true } }],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/test/support/count-reporter.js'],
};
