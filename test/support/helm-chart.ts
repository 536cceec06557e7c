import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureHelm, ensurePythonTools } from '@eligo/local-infra';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);

export const chartDir = join(__dirname, '..', '..', 'deploy', 'helm', 'eligo');
export const examplesDir = join(__dirname, '..', '..', 'deploy', 'helm', 'examples');

/** The Kubernetes version the rendered manifests are validated against (kubernetes-validate ships 1.25-1.37). */
export const KUBERNETES_VERSION = '1.33.0';

/** One rendered object, as far as the tests read it. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  data?: Record<string, string>;
}

// One scratch dir per test file: Helm's own state (repositories, plugins, cache: never the developer's home),
// rendered manifests and values files. removeScratch() deletes it.
const scratch = mkdtempSync(join(tmpdir(), 'eligo-helm-'));
const helmHome = join(scratch, 'home');
export function removeScratch(): void {
  rmSync(scratch, { recursive: true, force: true });
}
const helmEnv = {
  ...process.env,
  HELM_CACHE_HOME: join(helmHome, 'cache'),
  HELM_CONFIG_HOME: join(helmHome, 'config'),
  HELM_DATA_HOME: join(helmHome, 'data'),
};

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the pinned Helm (built from the Go module proxy on first use) and returns its exit code and output. */
export async function helm(args: string[]): Promise<HelmResult> {
  const binary = await ensureHelm();
  return run(binary, args, { env: helmEnv, maxBuffer: 32 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof err.code === 'number' ? err.code : 1,
      stdout: err.stdout ?? '',
      stderr: err.stderr ?? '',
    }),
  );
}

/** `helm template` of the chart with these values files and `--set` pairs; throws with Helm's message on failure. */
export async function renderChart(files: string[] = [], set: Record<string, string> = {}): Promise<string> {
  const args = ['template', 'r1', chartDir, ...files.flatMap((f) => ['-f', f])];
  for (const [k, v] of Object.entries(set)) args.push('--set-string', `${k}=${v}`);
  const result = await helm(args);
  if (result.code !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return result.stdout;
}

export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`rendered YAML does not parse: ${doc.errors[0]!.message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((m): m is Manifest => m !== null);
}

/**
 * kubernetes-validate (pinned in deploy/local/python/requirements.txt) in strict mode: an unknown field fails. Its
 * schemas ship in its wheel, so this needs no network. Returns its exit code and output.
 */
export async function kubernetesValidate(manifests: string): Promise<HelmResult> {
  const tools = await ensurePythonTools();
  const file = join(mkdtempSync(join(scratch, 'manifests-')), 'manifests.yaml');
  writeFileSync(file, manifests);
  const args = [...tools.kubernetesValidateArgs, '-k', KUBERNETES_VERSION, '--strict', '--quiet', file];
  return run(tools.python, args).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof err.code === 'number' ? err.code : 1,
      stdout: err.stdout ?? '',
      stderr: err.stderr ?? '',
    }),
  );
}

/** The custom resources the chart may render (their schemas are not Kubernetes'): left out of validation. */
export const CUSTOM_API_GROUPS = ['monitoring.coreos.com/'];

/** The documents of a render that Kubernetes' own schemas cover, as one multi-document YAML text. */
export function builtinOnly(text: string): string {
  return parseAllDocuments(text)
    .filter((doc) => {
      const apiVersion = String((doc.toJS() as Manifest | null)?.apiVersion ?? '');
      return apiVersion !== '' && !CUSTOM_API_GROUPS.some((g) => apiVersion.startsWith(g));
    })
    .map((doc) => doc.toString())
    .join('---\n');
}

/** Writes a values file into a scratch dir and returns its path. */
export function valuesFile(content: string): string {
  const file = join(mkdtempSync(join(scratch, 'values-')), 'values.yaml');
  writeFileSync(file, content);
  return file;
}
