// One step of `npm test` (scripts/test.mjs) or of its second lane (scripts/test-beside.mjs): run a command from
// the repository's root with the output shown, and print its name, its result and how long it took.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs `cmd args` in the repository's root; true when it exited 0. */
export function step(name, cmd, args, env = process.env) {
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (res.status !== 0) {
    console.error(`✖ ${name} failed (${secs} s)`);
    return false;
  }
  console.log(`✔ ${name} (${secs} s)`);
  return true;
}
