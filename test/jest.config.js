const preset = require('../jest.preset.js')(__dirname);
const { beside } = require('./lanes');

// ELIGO_TEST_LANE=main: scripts/test.mjs runs the files of lanes.js in a second jest run beside this one.
const main = process.env.ELIGO_TEST_LANE === 'main';
module.exports = {
  ...preset,
  testMatch: [
    '<rootDir>/e2e/**/*.test.ts',
    '<rootDir>/browser/**/*.test.ts',
    // The harness's own logic (what a failure prints).
    '<rootDir>/schemathesis/**/*.test.ts',
    '<rootDir>/support/**/*.test.ts',
  ],
  testPathIgnorePatterns: [
    ...preset.testPathIgnorePatterns,
    ...(main ? beside.map((file) => `<rootDir>/${file.replace(/\./g, '\\.')}$`) : []),
  ],
};
