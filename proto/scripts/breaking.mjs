// buf breaking against the last commit of main. Skips (and says so) only when main has no proto module yet.
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const buf = join(dirname(require.resolve('@bufbuild/buf/package.json')), 'bin', 'buf');
const top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: root }).toString().trim();
const ref = process.env.ELIGO_BUF_AGAINST_BRANCH ?? 'main';

const has = spawnSync('git', ['cat-file', '-e', `${ref}:proto/buf.yaml`], { cwd: top });
if (has.status !== 0) {
  console.log(`buf breaking: skipped, branch ${ref} has no proto/buf.yaml yet (nothing to compare against)`);
  process.exit(0);
}
const against = `${join(top, '.git')}#branch=${ref},subdir=proto`;
const res = spawnSync(buf, ['breaking', '--against', against], { cwd: root, stdio: 'inherit' });
if (res.status === 0) console.log(`buf breaking: no breaking change against ${ref}`);
process.exit(res.status ?? 1);
