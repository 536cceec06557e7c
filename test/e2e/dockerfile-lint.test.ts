import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ensurePythonTools } from '@eligo/local-infra';
import { dockerfilePath } from '../support/dockerfile';

const run = promisify(execFile);

// The image's Dockerfile is linted by hadolint (pinned in deploy/local/python/requirements.txt): this machine
// has no container engine to build it, so the linter and test/e2e/image-entrypoint.test.ts stand in for a build.
it('passes hadolint with no finding at any level', async () => {
  const { hadolint } = await ensurePythonTools();
  const { stdout } = await run(hadolint, [
    '--no-color',
    '--failure-threshold',
    'style',
    dockerfilePath,
  ]).catch((err: { stdout?: string; message: string }) => {
    throw new Error(`hadolint found:\n${err.stdout ?? err.message}`);
  });
  expect(stdout).toBe('');
}, 600_000);

it('finds what it should: the linter does run on the file', async () => {
  const { hadolint } = await ensurePythonTools();
  // A Dockerfile with a known finding (DL3007: the latest tag) must fail, or the test above proves nothing.
  const child = execFile(hadolint, ['--no-color', '-']);
  child.stdin!.end('FROM node:latest\n');
  const output = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', () => resolve(out));
  });
  expect(output).toContain('DL3007');
}, 600_000);
