// Benchmarks (test/bench): not part of `npm test`; they print figures instead of asserting timings.
const preset = require('../jest.preset.js')(__dirname);
module.exports = { ...preset, testMatch: ['<rootDir>/bench/**/*.bench.ts'], testTimeout: 600_000 };
