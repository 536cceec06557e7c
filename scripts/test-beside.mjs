#!/usr/bin/env node
// The second lane of `npm test` (scripts/test.mjs starts it with the servers' ELIGO_TEST_* variables and
// writes its output to a file): the Python tools and Chromium installed first (downloads, while the main
// lane computes), then the test files of test/lanes.js, Schemathesis and the browser tests among them.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root, step } from './step.mjs';

const { beside } = createRequire(import.meta.url)(join(root, 'test/lanes.js'));
const infraCli = join(root, 'deploy/local/dist/cli.js');

const ok =
  step('Python test tools', process.execPath, [infraCli, 'python-tools']) &&
  step('Chromium', process.execPath, [infraCli, 'chromium']) &&
  step(
    `${beside.join(', ')} (jest)`,
    join(root, 'node_modules/.bin/jest'),
    ['--config', 'test/jest.config.js', '--runTestsByPath', ...beside.map((file) => join('test', file))],
    { ...process.env, ELIGO_TEST_FAILURES_NAME: 'test-beside' },
  );
process.exit(ok ? 0 : 1);
