import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServiceUnderTest, type ServiceUnderTest } from '@eligo/local-infra';
import { allModules } from '../src/modules';

const exec = promisify(execFile);
// What the tests read of a reply, checked by toMatchObject.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const cli = join(__dirname, '..', 'dist', 'src', 'main.js');

/** `eligo admin list upload|get|delete` against every module in this process. */
describe('eligo admin list', () => {
  let sut: ServiceUnderTest;
  let dir: string;
  let programId: string;
  beforeAll(async () => {
    sut = await startServiceUnderTest({ modules: allModules, targets: Object.keys(allModules) });
    dir = mkdtempSync(join(tmpdir(), 'eligo-cli-lists-'));
    const account = await eligo('account', 'create', '--name', 'Acme');
    const program = await eligo(
      'program',
      'create',
      '--account',
      account.json.accountId,
      '--name',
      'Members',
      '--segment',
      'member',
    );
    programId = program.json.programId;
  });
  afterAll(async () => {
    await sut?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function eligo(...args: string[]): Promise<{ code: number; json: Json; stderr: string }> {
    const env = { ...process.env, ELIGO_ADMIN_URL: sut.httpUrl, ELIGO_ADMIN_TOKEN: sut.adminToken };
    try {
      const { stdout, stderr } = await exec(process.execPath, [cli, 'admin', ...args], { env });
      return { code: 0, json: stdout.trim() ? JSON.parse(stdout) : undefined, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, json: undefined, stderr: e.stderr };
    }
  }

  it('uploads CSV then NDJSON (replacing it), reads the counts and deletes the list', async () => {
    const csv = join(dir, 'rows.csv');
    writeFileSync(csv, 'email,memberId\nann@example.com,M-1\nnot-an-email,\n');
    const first = await eligo('list', 'upload', '--program', programId, '--file', csv);
    expect(first.code).toBe(0);
    expect(first.json).toMatchObject({
      list: { version: 1, rows: 1, identifiers: 2 },
      rowsRefused: 1,
      refusals: [{ line: 3, reason: 'email is not an email address' }],
    });
    const ndjson = join(dir, 'rows.ndjson');
    writeFileSync(ndjson, `${JSON.stringify({ memberId: 'M-2' })}\n`);
    const second = await eligo('list', 'upload', '--program', programId, '--file', ndjson);
    expect(second.json).toMatchObject({ list: { version: 2, format: 'ndjson', rows: 1 } });
    expect((await eligo('list', 'get', '--program', programId)).json).toMatchObject({ version: 2, rows: 1 });
    expect((await eligo('list', 'delete', '--program', programId)).code).toBe(0);
    const gone = await eligo('list', 'get', '--program', programId);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/no eligibility list/);
  });
});
