// The harness's own tests start (and stop) servers themselves; its global setup would only start them twice.
module.exports = require('../../jest.preset.js')(__dirname, { infra: false });
