// One suite at a time: each starts four modules with their consumers in one process, and two at once on
// this machine's two cores mostly measure contention.
module.exports = { ...require('../../jest.preset.js')(__dirname), maxWorkers: 1 };
