import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServiceUnderTest, type ServiceUnderTest } from '@eligo/local-infra';
import { allModules } from '../src/modules';

const exec = promisify(execFile);
const main = join(__dirname, '..', 'dist', 'src', 'main.js');

// What the tests read of a reply, checked by toMatchObject.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** The built CLI run once with these arguments and environment (over the suite's own); code 0 on success. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [main, ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

export interface AdminCli {
  /** Every module in this process, on the suite's servers. */
  readonly sut: ServiceUnderTest;
  /** A scratch directory for the files the commands read, removed after the suite. */
  readonly dir: string;
  /** `eligo admin <args>` as the operator; `json` is its parsed output, when it printed any. */
  eligo(...args: string[]): Promise<{ code: number; json: Json; stderr: string }>;
  /** A new account and a program of it with this name and segment: the program's id. */
  createProgram(name: string, segment: string): Promise<string>;
}

/**
 * Starts every module for the describe block it is called in (stopped after it) and runs `eligo admin`
 * against them. Call it at the top of the block: its beforeAll runs before the block's own.
 */
export function adminCli(name: string, env: Record<string, string> = {}): AdminCli {
  let sut: ServiceUnderTest;
  let dir: string;
  beforeAll(async () => {
    sut = await startServiceUnderTest({ modules: allModules, targets: Object.keys(allModules), env });
    dir = mkdtempSync(join(tmpdir(), `eligo-cli-${name}-`));
  });
  afterAll(async () => {
    await sut?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function eligo(...args: string[]) {
    const run = await runCli(['admin', ...args], {
      ELIGO_ADMIN_URL: sut.httpUrl,
      ELIGO_ADMIN_TOKEN: sut.adminToken,
    });
    const json: Json = run.code === 0 && run.stdout.trim() ? JSON.parse(run.stdout) : undefined;
    return { code: run.code, json, stderr: run.stderr };
  }

  return {
    get sut() {
      return sut;
    },
    get dir() {
      return dir;
    },
    eligo,
    async createProgram(name, segment) {
      const account = await eligo('account', 'create', '--name', 'Acme');
      const program = await eligo(
        'program',
        'create',
        '--account',
        account.json.accountId,
        '--name',
        name,
        '--segment',
        segment,
      );
      return program.json.programId as string;
    },
  };
}
