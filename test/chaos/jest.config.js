// The chaos run (test/chaos): not part of `npm test` (test/jest.config.js matches e2e/ only); `npm run chaos`.
const path = require('node:path');
const preset = require('../../jest.preset.js')(path.join(__dirname, '..'));
module.exports = {
  ...preset,
  testMatch: ['<rootDir>/chaos/**/*.test.ts'],
  // The test sets its own timeout from CHAOS_DURATION_MS and the settling time.
  testTimeout: 3_600_000,
};
