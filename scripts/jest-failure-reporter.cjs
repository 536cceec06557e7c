// Writes every failed test of a jest run to .eligo/test-failures/<package>.txt, so that `npm test` can repeat
// them at the very end of its output: CI shows only the tail of a long log, and a failure scrolled out of it
// cannot be diagnosed.
const fs = require('node:fs');
const path = require('node:path');
const { stripVTControlCharacters: stripAnsi } = require('node:util');

// A message longer than this keeps its head (what failed) and its tail (often why: the end of a process's
// output, the server errors a test appends).
const MAX_MESSAGE_CHARS = 3000;

function bounded(text) {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  const half = MAX_MESSAGE_CHARS / 2;
  return `${text.slice(0, half)}\n[… ${text.length - MAX_MESSAGE_CHARS} characters …]\n${text.slice(-half)}`;
}

class FailureReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const lines = [];
    for (const file of results.testResults) {
      const where = path.relative(this.rootDir, file.testFilePath);
      if (file.testExecError) lines.push(`${where}: ${bounded(stripAnsi(file.testExecError.message))}`);
      for (const test of file.testResults) {
        if (test.status !== 'failed') continue;
        const message = stripAnsi(test.failureMessages.join('\n'))
          .split('\n')
          .filter((line) => !line.includes('/node_modules/')) // jest's own frames say nothing about the failure
          .join('\n');
        lines.push(`${where} › ${test.fullName}\n${bounded(message).replace(/^/gm, '    ')}`);
      }
    }
    if (lines.length === 0) return;
    const dir = path.join(__dirname, '..', '.eligo', 'test-failures');
    fs.mkdirSync(dir, { recursive: true });
    // A second jest run of one package at the same time (scripts/test.mjs' lane beside) names its own file.
    const name = process.env.ELIGO_TEST_FAILURES_NAME ?? path.basename(this.rootDir);
    fs.writeFileSync(path.join(dir, `${name}.txt`), `${lines.join('\n\n')}\n`);
  }
}

module.exports = FailureReporter;
