// Shared jest settings for every workspace. TypeScript is compiled by @swc/jest (fast, no type check);
// type checking is `tsc --noEmit` in each package's lint task.
const path = require('node:path');

// ESM-only dependencies (file-type 21, openid-client 6, and their own) that Node 20.19+ loads with require(esm)
// at run time; jest's module system cannot, so they are compiled to CommonJS like our sources.
const ESM_ONLY = [
  'file-type',
  'strtok3',
  'token-types',
  '@tokenizer',
  'uint8array-extras',
  '@borewit',
  'openid-client',
  'oauth4webapi',
  'jose',
];
const swc = (syntax) => [
  '@swc/jest',
  { jsc: { parser: { syntax }, target: 'es2022' }, module: { type: 'commonjs' } },
];

/** @param {string} dir the package directory (pass __dirname) */
module.exports = function preset(dir, { infra = true } = {}) {
  return {
    rootDir: dir,
    testEnvironment: 'node',
    transform: { '^.+\\.tsx?$': swc('typescript'), '^.+\\.m?js$': swc('ecmascript') },
    transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
    // file-type exports its entry only under "import"/"module-sync", conditions jest's resolver does not use.
    moduleNameMapper: { '^file-type$': require.resolve('file-type', { paths: [__dirname] }) },
    testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    // dist/ holds a copy of package.json (services import their version): keep it out of jest's module map.
    modulePathIgnorePatterns: ['<rootDir>/dist/'],
    // Integration suites share one set of servers: started once (or found) by the global setup.
    ...(infra
      ? {
          globalSetup: path.join(__dirname, 'deploy/local/dist/jest/global-setup.js'),
          globalTeardown: path.join(__dirname, 'deploy/local/dist/jest/global-teardown.js'),
        }
      : {}),
    testTimeout: 60_000,
    // The failures again at the end of `npm test` (scripts/test.mjs), where CI's tail of the log shows them.
    reporters: ['default', path.join(__dirname, 'scripts/jest-failure-reporter.cjs')],
  };
};
