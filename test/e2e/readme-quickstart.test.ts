import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEligoSuite, type EligoProcess, type EligoSuite } from '../support/eligo-process';

// The README's Quickstart, run as it stands: the shell block under "## Quickstart" runs with `bash -euo
// pipefail` from the repository root (so that its `npm run -s eligo` finds the workspace's CLI) against a real
// `eligo start --target all`. The only changes are the ones a second machine would need: the CLI is pointed at
// this test's process through the environment it already honours (ELIGO_ADMIN_URL, ELIGO_ADMIN_TOKEN), and the
// block's base URL, http://localhost:8080 (what `npm start` serves), is replaced by this process's URL as text.
// The catalog is seeded as `npm start` seeds it (the swot school list), since the block looks a school up.

const repo = join(__dirname, '..', '..');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const program = JSON.parse(readFileSync(join(repo, 'examples', 'program.json'), 'utf8')) as {
  segment: string;
  mode: string;
  rewardCode: string;
};
const documentedBaseUrl = 'http://localhost:8080';
const adminToken = `eligo_admin_${'quickstart'.repeat(3)}`;

/** The first ```sh block of the "## Quickstart" section (up to the next "## " heading). */
function quickstartBlock(markdown: string): string {
  const section = /^## Quickstart[ \t]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown)?.[1];
  if (section === undefined) throw new Error('README.md has no "## Quickstart" section');
  const block = /^```(?:sh|bash)[ \t]*\n([\s\S]*?)^```[ \t]*$/m.exec(section)?.[1];
  if (block === undefined) throw new Error('the Quickstart section of README.md has no ```sh block');
  return block;
}

/** Runs a script with bash, resolving with its exit code and output (never rejects on a failing script). */
function runBash(
  script: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: repo,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The shell's environment: this process's, without anything that would point the block elsewhere (ELIGO_*
 * settings, and npm_* variables of the npm run that started jest, such as a workspace to run scripts in).
 */
function shellEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('ELIGO_') && !/^npm_/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

let suite: EligoSuite;
let eligo: EligoProcess;

beforeAll(async () => {
  // The catalog npm start loads on a first start: the quickstart looks a school up in it.
  suite = await startEligoSuite(adminToken, { ELIGO_ORGANIZATIONS_SEED: 'swot' }, 90_000);
  eligo = suite.eligo;
}, 120_000);

afterAll(() => suite?.stop());

it('finds the quickstart block, written for a fresh `npm start`', () => {
  const block = quickstartBlock(readme);
  expect(block).toContain(documentedBaseUrl);
  expect(block).toContain('examples/program.json');
  // What the block relies on: a test-mode student program with a static code it can show.
  expect(program).toMatchObject({ segment: 'student', mode: 'test', rewardCode: expect.any(String) });
});

it('runs the quickstart block to a successful verification with the reward code', async () => {
  // Textual substitution: the block's http://localhost:8080 becomes this test's server.
  const script = quickstartBlock(readme).replaceAll(documentedBaseUrl, eligo.httpUrl);
  const run = await runBash(
    script,
    shellEnv({ ELIGO_ADMIN_URL: eligo.httpUrl, ELIGO_ADMIN_TOKEN: adminToken }),
    90_000,
  );
  // On failure, the block's output and the server's errors tell which step broke and why.
  const serverErrors = eligo
    .output()
    .split('\n')
    .filter((l) => /"level":"(error|fatal)"/.test(l))
    .join('\n');
  const shown = `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}\n--- server errors\n${serverErrors}`;
  expect(shown).toMatch(/^exit 0\n/);

  const lines = run.stdout.trim().split('\n');
  // The collect step's answer, then the final state read with the account's token.
  expect(lines.at(-2)).toBe('success');
  const final = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
  expect(final).toMatchObject({
    verificationId: expect.stringMatching(/^[0-9a-f]{24}$/),
    currentStep: 'success',
    segment: 'student',
    errorIds: [],
    rewardCode: program.rewardCode,
  });
}, 120_000);
