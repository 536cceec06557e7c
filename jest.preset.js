// Shared jest settings for every workspace. TypeScript is compiled by @swc/jest (fast, no type check);
// type checking is `tsc --noEmit` in each package's lint task.
const path = require('node:path');

/** @param {string} dir the package directory (pass __dirname) */
module.exports = function preset(dir, { infra = true } = {}) {
  return {
    rootDir: dir,
    testEnvironment: 'node',
    transform: {
      '^.+\\.tsx?$': [
        '@swc/jest',
        { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
      ],
    },
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
