import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminCli, type Json } from './admin-cli';

/** `eligo admin organizations ...` and `add-school-requests ...` against every module in this process. */
describe('eligo admin organizations', () => {
  const cli = adminCli('orgs', { ELIGO_ORGANIZATIONS_SEED: 'none' });
  const { eligo } = cli;
  let programId: string;
  beforeAll(async () => {
    programId = await cli.createProgram('Students', 'student');
  });

  async function search(name: string): Promise<Array<{ id: number; name: string }>> {
    const url = `${cli.sut.httpUrl}/rest/v2/program/${programId}/organization?name=${encodeURIComponent(name)}`;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    return (await response.json()) as Array<{ id: number; name: string }>;
  }

  it('imports a CSV file, idempotently, and reports bad rows by line', async () => {
    const file = join(cli.dir, 'schools.csv');
    writeFileSync(
      file,
      [
        'externalId,name,type,country,domains,city,state',
        'cli-1,Cliffside University,UNIVERSITY,US,cliffside.edu;cs.cliffside.edu,Springfield,IL',
        'cli-2,Cliffside Community College,POST_SECONDARY,US,,,',
        'cli-3,Nowhere School,SPACESHIP,US,,,',
      ].join('\n') + '\n',
    );
    const first = await eligo('organizations', 'import', file);
    expect(first.code).toBe(0);
    expect(first.json).toMatchObject({ received: 3, created: 2, updated: 0, unchanged: 0, rejected: 1 });
    expect(first.json.errors).toEqual([{ line: 4, message: expect.stringMatching(/type/) }]);

    const again = await eligo('organizations', 'import', file);
    expect(again.json).toMatchObject({ created: 0, updated: 0, unchanged: 2, rejected: 1 });

    const university = (await search('cliffside university'))[0]!;
    expect(university.name).toBe('Cliffside University');
    const got = await eligo('organizations', 'get', String(university.id));
    expect(got.json).toMatchObject({
      id: university.id,
      externalKey: 'cli-1',
      domains: ['cliffside.edu', 'cs.cliffside.edu'],
      city: 'Springfield',
      state: 'IL',
    });
  });

  it('imports JSON lines, and refuses a file whose format it cannot tell', async () => {
    const file = join(cli.dir, 'schools.jsonl');
    writeFileSync(
      file,
      JSON.stringify({
        externalId: 'cli-4',
        name: 'Jsonline Institute',
        type: 'POST_SECONDARY',
        country: 'CA',
      }) + '\n',
    );
    const imported = await eligo('organizations', 'import', file);
    expect(imported.json).toMatchObject({ received: 1, created: 1 });

    const unknown = join(cli.dir, 'schools.txt');
    writeFileSync(unknown, 'x');
    const refused = await eligo('organizations', 'import', unknown);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--format/);
  });

  it('lists add-school requests, accepts one into the catalog and declines another', async () => {
    const request = (schoolName: string, schoolDomain: string) =>
      fetch(`${cli.sut.httpUrl}/rest/v2/organization/addSchool`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          programId,
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.com',
          schoolName,
          schoolDomain,
          schoolCountry: 'US',
        }),
      });
    expect((await request('Lakeshore Polytechnic', 'lakeshore.edu')).status).toBe(204);
    expect((await request('Hilltop Academy', 'hilltop.edu')).status).toBe(204);

    const pending = await eligo('add-school-requests', 'list', '--status', 'PENDING', '--program', programId);
    expect(pending.code).toBe(0);
    const bySchool = new Map<string, Json>(pending.json.requests.map((r: Json) => [r.schoolName, r]));
    expect(bySchool.get('Lakeshore Polytechnic')).toMatchObject({
      email: 'ada@example.com',
      status: 'PENDING',
    });

    const accepted = await eligo(
      'add-school-requests',
      'accept',
      bySchool.get('Lakeshore Polytechnic').requestId,
      '--type',
      'POST_SECONDARY',
    );
    expect(accepted.code).toBe(0);
    expect(accepted.json.request.status).toBe('ACCEPTED');
    expect((await search('lakeshore'))[0]).toMatchObject({ name: 'Lakeshore Polytechnic' });

    const declined = await eligo(
      'add-school-requests',
      'decline',
      bySchool.get('Hilltop Academy').requestId,
      '--reason',
      'not a school',
    );
    expect(declined.json.request).toMatchObject({ status: 'DECLINED', declineReason: 'not a school' });
    expect(await search('hilltop')).toEqual([]);

    const twice = await eligo('add-school-requests', 'decline', bySchool.get('Hilltop Academy').requestId);
    expect(twice.code).toBe(1);
  });
});
