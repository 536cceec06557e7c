#!/usr/bin/env node
// The second lane of `npm test` (scripts/test.mjs starts it with the servers' ELIGO_TEST_* variables and
// writes its output to a file): the Python tools and Chromium installed first (downloads, while the main
// lane computes; its browser tests then find Chromium in place), then the test files of test/lanes.js.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { beside } = createRequire(import.meta.url)(join(root, 'test/lanes.js'));
const infraCli = join(root, 'deploy/local/dist/cli.js');

function run(name, cmd, args, env = process.env) {
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(res.status === 0 ? `✔ ${name} (${secs} s)` : `✖ ${name} failed (${secs} s)`);
  return res.status === 0;
}

const ok =
  run('Python test tools', process.execPath, [infraCli, 'python-tools']) &&
  run('Chromium', process.execPath, [infraCli, 'chromium']) &&
  run(
    `${beside.join(', ')} (jest)`,
    join(root, 'node_modules/.bin/jest'),
    ['--config', 'test/jest.config.js', '--runTestsByPath', ...beside.map((file) => join('test', file))],
    { ...process.env, ELIGO_TEST_FAILURES_NAME: 'test-beside' },
  );
process.exit(ok ? 0 : 1);
