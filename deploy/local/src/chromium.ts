import fs from 'node:fs';
import path from 'node:path';
import { findExecutable, runCommand } from './command';
import { cacheDirFrom } from './config';
import { InfraError } from './errors';
import { timed, type Log } from './log';
import { withStateLock } from './state';

/**
 * Debian's Chromium, the browser of the browser tests (test/support/browser.ts drives it with playwright-core).
 * It comes from the distribution's package, installed with apt-get: no browser is ever downloaded any other way
 * (no `playwright install`, no CDN), so the browser is whatever Debian's security updates ship.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';
const PACKAGE = 'chromium';
const INSTALL_HINT =
  `install Debian's chromium package as root: ` +
  `apt-get update && apt-get install -y --no-install-recommends ${PACKAGE}`;

export interface Chromium {
  /** The executable: always CHROMIUM_PATH (Debian's launcher script, which execs /usr/lib/chromium/chromium). */
  path: string;
  /** What `chromium --version` prints, e.g. "Chromium 138.0.7204.183 built on Debian GNU/Linux 12 (bookworm)". */
  version: string;
}

export interface ChromiumContext {
  env?: NodeJS.ProcessEnv;
  log?: Log;
}

/**
 * The path and version of Debian's chromium, installed first when it is missing: as root, `apt-get update` then
 * `apt-get install -y --no-install-recommends chromium` (noninteractive), logged to <cache>/chromium/install.log.
 * Without root or apt-get it fails saying what to install. The install runs under the harness's state lock, so
 * that two test files (or two jest runs) asking at once never run apt-get side by side: the second one waits,
 * then finds the browser installed.
 */
export async function ensureChromium(ctx: ChromiumContext = {}): Promise<Chromium> {
  const env = ctx.env ?? process.env;
  const log = ctx.log ?? (() => {});
  if (!isExecutable(CHROMIUM_PATH)) {
    const apt = findExecutable('apt-get', env);
    if (!apt) throw new InfraError(`${CHROMIUM_PATH} not found and apt-get is missing: ${INSTALL_HINT}`);
    if (process.getuid?.() !== 0) {
      throw new InfraError(`${CHROMIUM_PATH} not found, and installing it needs root: ${INSTALL_HINT}`);
    }
    const cacheDir = cacheDirFrom(env);
    await withStateLock(cacheDir, log, async () => {
      if (isExecutable(CHROMIUM_PATH)) return; // installed by whoever held the lock before us
      const dir = path.join(cacheDir, 'chromium');
      fs.mkdirSync(dir, { recursive: true });
      const run = (args: string[]) =>
        runCommand(apt, ['-o', 'DPkg::Lock::Timeout=300', ...args], {
          env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
          timeoutMs: 15 * 60_000,
          logFile: path.join(dir, 'install.log'),
        });
      await timed(log, `install Debian's ${PACKAGE} with apt-get (once)`, async () => {
        await run(['update']);
        await run(['install', '-y', '--no-install-recommends', PACKAGE]);
      }).catch((err: Error) => {
        throw new InfraError(`could not install ${PACKAGE} with apt-get: ${err.message}`);
      });
      if (!isExecutable(CHROMIUM_PATH)) {
        throw new InfraError(`apt-get installed ${PACKAGE}, but ${CHROMIUM_PATH} is still missing`);
      }
    });
  }
  const output = await runCommand(CHROMIUM_PATH, ['--version'], { env, timeoutMs: 30_000 }).catch(
    (err: Error) => {
      throw new InfraError(`${CHROMIUM_PATH} --version failed: ${err.message}`);
    },
  );
  // The launcher sources /etc/chromium.d/* first, whose scripts may warn on stderr (bookworm's dev-shm does
  // when findmnt lists /dev/shm twice): the version is the line the browser printed.
  const version = /^Chromium \d.*$/m.exec(output)?.[0].trim();
  if (!version) throw new InfraError(`${CHROMIUM_PATH} --version printed no version:\n${output}`);
  return { path: CHROMIUM_PATH, version };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
