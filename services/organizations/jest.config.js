const preset = require('../../jest.preset.js')(__dirname);

// openid-client 6 and its own dependencies are ES modules, which Node 20.19+ loads from CommonJS at run time
// (src/adapters/oidc-client.ts imports it when first used); jest's module system cannot, so they are
// compiled to CommonJS like the preset's other ES-only packages.
const ESM_ONLY = ['openid-client', 'oauth4webapi', 'jose'];

module.exports = {
  ...preset,
  transformIgnorePatterns: preset.transformIgnorePatterns.map((pattern) =>
    pattern.replace('(?!(', `(?!(${ESM_ONLY.join('|')}|`),
  ),
};
