import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePythonTools } from '@eligo/local-infra';
import { schemathesisToml, wfcAuth, type Profile } from './config';
import type { Seeded } from './seed';

export interface SchemathesisResult {
  exitCode: number | null;
  /** The whole console output (failures with their reproducing curl commands, then the summary). */
  output: string;
  reportDir: string;
  /** The seed the run generated with (ELIGO_SCHEMATHESIS_SEED replays it). */
  seed: string;
}

/**
 * The lines to read first when a run fails, for the head of the test's message (CI shows the head and the tail
 * of a long log, and a run's output is ~60 KB): the seed, the summary's counts, and each failing or erroring
 * operation with the checks it failed (`- <code> <title>`) and its curl reproduction, in the order printed.
 */
export function failureDigest(output: string, seed: string): string {
  const digest = [`seed ${seed} (ELIGO_SCHEMATHESIS_SEED=${seed} replays it)`];
  let operation = '';
  let summary = false;
  for (const line of output.split('\n')) {
    const label = /^_{3,} (.+?) _{3,}$/.exec(line.trim());
    if (/^={3,} SUMMARY ={3,}$/.test(line.trim())) [summary, operation] = [true, ''];
    else if (summary) {
      if (/^ +(❌|🚫) /.test(line)) digest.push(line.trim());
    } else if (label) {
      operation = label[1]!;
      digest.push(operation);
    } else if (operation && /^- \S/.test(line)) digest.push(`  ${line}`);
    else if (operation && /^ +curl /.test(line)) digest.push(`    ${line.trim().slice(0, 400)}`);
  }
  return digest.join('\n');
}

/**
 * Runs the pinned Schemathesis (deploy/local/python) against the OpenAPI document a running Eligo serves,
 * every check on, as the seeded identities, until its examples are spent or `timeoutMs` passes (then it is
 * killed: the run stops by itself either way).
 */
export async function runSchemathesis(
  httpUrl: string,
  seeded: Seeded,
  profile: Profile,
  timeoutMs: number,
): Promise<SchemathesisResult> {
  const tools = await ensurePythonTools(process.env, (line) => process.stderr.write(`${line}\n`));
  const dir = mkdtempSync(join(tmpdir(), 'eligo-schemathesis-'));
  const authFile = join(dir, 'auth.json');
  const configFile = join(dir, 'schemathesis.toml');
  writeFileSync(authFile, JSON.stringify(wfcAuth(seeded)), { mode: 0o600 });
  writeFileSync(configFile, schemathesisToml(seeded, profile, authFile));
  const reportDir = join(dir, 'report');
  const seed = process.env.ELIGO_SCHEMATHESIS_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
  const args = [
    ...tools.schemathesisArgs,
    '--no-color',
    '--config-file',
    configFile,
    'run',
    `${httpUrl}/rest/v2/openapi.json`,
    '--checks',
    'all',
    '--report',
    'junit,ndjson',
    '--report-dir',
    reportDir,
    // Development: only the operations whose path matches (e.g. ELIGO_SCHEMATHESIS_INCLUDE='^/programs').
    ...(process.env.ELIGO_SCHEMATHESIS_INCLUDE
      ? ['--include-path-regex', process.env.ELIGO_SCHEMATHESIS_INCLUDE]
      : []),
    '--seed',
    seed,
  ];
  return new Promise((resolve) => {
    const child = spawn(tools.python, args, {
      cwd: dir,
      env: { ...process.env, PYTHONUNBUFFERED: '1', HYPOTHESIS_STORAGE_DIRECTORY: join(dir, '.hypothesis') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      output += `\n[killed after ${timeoutMs} ms]\n`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output, reportDir, seed });
    });
  });
}
