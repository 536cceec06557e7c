import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminCli } from './admin-cli';

/** `eligo admin list upload|get|delete` against every module in this process. */
describe('eligo admin list', () => {
  const cli = adminCli('lists');
  const { eligo } = cli;
  let programId: string;
  beforeAll(async () => {
    programId = await cli.createProgram('Members', 'member');
  });

  it('uploads CSV then NDJSON (replacing it), reads the counts and deletes the list', async () => {
    const csv = join(cli.dir, 'rows.csv');
    writeFileSync(csv, 'email,memberId\nann@example.com,M-1\nnot-an-email,\n');
    const first = await eligo('list', 'upload', '--program', programId, '--file', csv);
    expect(first.code).toBe(0);
    expect(first.json).toMatchObject({
      list: { version: 1, rows: 1, identifiers: 2 },
      rowsRefused: 1,
      refusals: [{ line: 3, reason: 'email is not an email address' }],
    });
    const ndjson = join(cli.dir, 'rows.ndjson');
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
