#!/usr/bin/env node
// `npm test`: formatting, build, contracts (buf lint + breaking), lint and type checks, then every package's tests against
// real Postgres, Kafka and MinIO (found from ELIGO_TEST_* or started once by the local harness and stopped at
// the end), then the event tests again against the current Kafka 4.x line. The longest end-to-end files
// (test/lanes.js) run in a second lane beside the packages' tests (scripts/test-beside.mjs), their output
// kept in a file and shown when the first lane is done.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { root, step } from './step.mjs';

const infraCli = join(root, 'deploy/local/dist/cli.js');
const compatKafka = process.env.ELIGO_TEST_KAFKA_COMPAT_VERSION ?? '4.4.0';
const startedAt = Date.now();
// No telemetry calls from CI machines that only reach package registries.
process.env.TURBO_TELEMETRY_DISABLED = '1';

function infra(args, env = process.env) {
  const res = spawnSync(process.execPath, [infraCli, ...args, '--json'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (res.status !== 0) throw new Error(`infra ${args.join(' ')} failed`);
  return JSON.parse(res.stdout.toString() || '{}');
}

// Failed tests, written by scripts/jest-failure-reporter.cjs and repeated at the end of the output.
const failuresDir = join(root, '.eligo/test-failures');
rmSync(failuresDir, { recursive: true, force: true });
function printFailures() {
  if (!existsSync(failuresDir)) return;
  for (const file of readdirSync(failuresDir).sort()) {
    console.error(
      `\n✖ failed tests of ${file.replace(/\.txt$/, '')}:\n${readFileSync(join(failuresDir, file), 'utf8')}`,
    );
  }
}

const turbo = join(root, 'node_modules/.bin/turbo');
const prettier = join(root, 'node_modules/.bin/prettier');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let ok =
  step('formatting (prettier --check)', prettier, ['--check', '--log-level', 'warn', '.']) &&
  step('build, contracts, lint and type checks', turbo, [
    'run',
    'build',
    'lint',
    '--output-logs=errors-only',
  ]) &&
  // After the build: workspace packages resolve to their dist/ entries.
  step('import rules (dependency-cruiser)', npm, ['run', '-s', 'lint:imports']);
if (!ok) process.exit(1);

const given = ['ELIGO_TEST_DATABASE_URL', 'ELIGO_TEST_KAFKA_BROKERS', 'ELIGO_TEST_S3_ENDPOINT'].every(
  (k) => process.env[k],
);
let env = process.env;
// What this run started (and must stop); servers a developer keeps up with `npm run infra -- up` stay up.
let started = [];
const stop = () => {
  if (started.length > 0) {
    spawnSync(process.execPath, [infraCli, 'down', '--only', started.join(',')], {
      cwd: root,
      stdio: 'inherit',
    });
    started = [];
  }
};
let beside;
const killBeside = () => beside?.exitCode === null && process.kill(-beside.pid, 'SIGKILL');
process.on('SIGINT', () => (killBeside(), stop(), process.exit(130)));
process.on('SIGTERM', () => (killBeside(), stop(), process.exit(143)));
try {
  if (!given) {
    const up = infra(['up']);
    started = up.started ?? [];
    env = { ...process.env, ...up.env };
  }
  const besideLog = join(root, '.eligo/test-beside.log');
  mkdirSync(dirname(besideLog), { recursive: true });
  const besideFd = openSync(besideLog, 'w');
  const besideStarted = Date.now();
  // Its own process group, so that an interrupted run stops jest and the Eligo it started too.
  beside = spawn(process.execPath, [join(root, 'scripts/test-beside.mjs')], {
    cwd: root,
    env,
    stdio: ['ignore', besideFd, besideFd],
    detached: true,
  });
  closeSync(besideFd);
  const besideDone = new Promise((resolve) => beside.once('exit', (code) => resolve(code)));
  // --only: the builds ran above. Run again here they would rewrite dist/ files while the lane beside loads them.
  // --continue: every package's failures in one run, not only the first failing package's.
  ok = step(
    'tests (turbo run test)',
    turbo,
    ['run', 'test', '--only', '--continue', '--concurrency=1', '--output-logs=full'],
    { ...env, ELIGO_TEST_LANE: 'main' },
  );
  console.log('\n… the tests beside: their output follows when they end (.eligo/test-beside.log)');
  const besideCode = await besideDone;
  const besideSecs = ((Date.now() - besideStarted) / 1000).toFixed(1);
  console.log(`\n▶ tests beside (scripts/test-beside.mjs)\n${readFileSync(besideLog, 'utf8')}`);
  console.log(
    besideCode === 0 ? `✔ tests beside (${besideSecs} s)` : `✖ tests beside failed (${besideSecs} s)`,
  );
  ok = ok && besideCode === 0;
  if (ok && compatKafka && started.includes('kafka')) {
    // The same event tests against the current Kafka 4.x line, so that we know kafkajs works with it.
    spawnSync(process.execPath, [infraCli, 'down', '--only', 'kafka'], { cwd: root, stdio: 'inherit' });
    // Without the first broker's address in the environment, or the harness would take it as given.
    const { ELIGO_TEST_KAFKA_BROKERS: _old, ELIGO_TEST_KAFKA_VERSION: _v, ...withoutKafka } = env;
    const compat = infra(['up', '--only', 'kafka', '--kafka-version', compatKafka], withoutKafka);
    ok = step(
      `event tests against Kafka ${compatKafka}`,
      join(root, 'node_modules/.bin/jest'),
      ['--config', 'packages/runtime/jest.config.js', 'packages/runtime/test/events'],
      { ...env, ...compat.env },
    );
  } else if (ok && compatKafka) {
    console.log(`\nKafka ${compatKafka} compatibility run skipped: Kafka was not started by this run`);
  }
} finally {
  stop();
}
printFailures();
console.log(`\n${ok ? 'all checks passed' : 'FAILED'} in ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
process.exit(ok ? 0 : 1);
