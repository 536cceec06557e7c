// One test file at a time: every notifier under test joins the same Kafka consumer groups
// (eligo.notifier.*), and two at once would split the topics' partitions between them, so one suite's
// notifier would consume (and skip) the other's events.
module.exports = { ...require('../../jest.preset.js')(__dirname), maxWorkers: 1 };
