const preset = require('../jest.preset.js')(__dirname);
module.exports = { ...preset, testMatch: ['<rootDir>/e2e/**/*.test.ts', '<rootDir>/browser/**/*.test.ts'] };
