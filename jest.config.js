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
  // Every run in a new order (Jest prints the seed; `--seed=N` repeats one): a test that leans on another's state fails here.
  randomize: true,
  reporters: ['default', '<rootDir>/test/support/count-reporter.js'],
};
