import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminCli, runCli } from './admin-cli';

/** `eligo admin ...` against a running service (every module, in this process, on the suite's servers). */
describe('eligo admin', () => {
  const cli = adminCli('it');
  const { eligo } = cli;

  it('creates an account, a token, a program, stocks and reads it, then revokes the token', async () => {
    const account = await eligo('account', 'create', '--name', 'Acme');
    expect(account.code).toBe(0);
    expect(account.json).toMatchObject({ name: 'Acme', accountId: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const accountId = account.json.accountId as string;

    const token = await eligo(
      'token',
      'create',
      '--account',
      accountId,
      '--name',
      'ci',
      '--role',
      'REPORTER',
      'PII',
    );
    expect(token.code).toBe(0);
    expect(token.json).toMatchObject({ token: expect.stringMatching(/^eligo_/), roles: ['REPORTER', 'PII'] });

    const config = join(cli.dir, 'program.json');
    writeFileSync(config, JSON.stringify({ offerType: 'rewardPool', countries: ['US'] }));
    const created = await eligo(
      'program',
      'create',
      '--account',
      accountId,
      '--name',
      'Spring',
      '--segment',
      'student',
      '--file',
      config,
    );
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({
      name: 'Spring',
      segment: 'student',
      mode: 'test',
      offerType: 'rewardPool',
    });
    const programId = created.json.programId as string;

    const codes = join(cli.dir, 'codes.txt');
    writeFileSync(codes, Array.from({ length: 12_000 }, (_, i) => `CODE-${i}`).join('\n') + '\nCODE-1\n');
    const stocked = await eligo('reward-codes', 'add', programId, codes);
    expect(stocked.json).toEqual({ added: 12_000, remaining: 12_000 });

    const patch = join(cli.dir, 'patch.json');
    writeFileSync(patch, JSON.stringify({ name: 'Spring 2027', redirectUrl: 'https://acme.example/thanks' }));
    const updated = await eligo('program', 'update', programId, '--file', patch);
    expect(updated.json).toMatchObject({ name: 'Spring 2027', redirectUrl: 'https://acme.example/thanks' });

    const read = await eligo('program', 'get', programId);
    expect(read.json).toMatchObject({ programId, name: 'Spring 2027', rewardCodesRemaining: 12_000 });

    const revoked = await eligo('token', 'revoke', '--account', accountId, '--token-id', token.json.tokenId);
    expect(revoked).toMatchObject({ code: 0, json: { revoked: token.json.tokenId } });
  });

  it('creates staff members (the password printed once), lists, disables, resets them, and reads the audit', async () => {
    const created = await eligo(
      'staff',
      'create',
      '--email',
      'Rita@Example.com',
      '--name',
      'Rita',
      '--role',
      'reviewer',
    );
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({
      staffId: expect.stringMatching(/^[0-9a-f]{24}$/),
      email: 'rita@example.com',
      role: 'reviewer',
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    });
    const staffId = created.json.staffId as string;
    const badRole = await eligo(
      'staff',
      'create',
      '--email',
      'x@example.com',
      '--name',
      'X',
      '--role',
      'owner',
    );
    // Refused by the command itself, before any call.
    expect(badRole.code).not.toBe(0);
    const twice = await eligo(
      'staff',
      'create',
      '--email',
      'rita@example.com',
      '--name',
      'R',
      '--role',
      'admin',
    );
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/HTTP 409/);

    const listed = await eligo('staff', 'list');
    expect(listed.json.staff.map((s: { staffId: string }) => s.staffId)).toContain(staffId);
    expect(JSON.stringify(listed.json)).not.toContain('password');

    const disabled = await eligo('staff', 'disable', staffId);
    expect(disabled.json).toMatchObject({ staffId, disabled: true });
    const reset = await eligo('staff', 'reset-password', staffId);
    expect(reset.json.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(reset.json.password).not.toBe(created.json.password);

    const audit = await eligo('audit', '--action', 'adminUpdateStaff', '--since', '1h');
    expect(audit.json.entries).toEqual([
      expect.objectContaining({
        actorKind: 'operator',
        action: 'adminUpdateStaff',
        targets: { staffId },
        status: 200,
      }),
    ]);
    const creations = await eligo('audit', '--action', 'adminCreateStaff');
    expect(creations.json.entries.map((e: { status: number }) => e.status)).toEqual([409, 201]);
  });

  it('prints the API error body and exits 1', async () => {
    const missing = await eligo('program', 'get', '0123456789abcdef01234567');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/HTTP 404[\s\S]*noProgram/);
    const invalid = await eligo('account', 'create', '--name', '');
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/HTTP 400[\s\S]*invalidRequest/);
  });

  it('refuses a wrong operator token', async () => {
    const { stderr, code } = await runCli(
      ['admin', '--token', 'x'.repeat(30), 'account', 'create', '--name', 'A'],
      { ELIGO_ADMIN_URL: cli.sut.httpUrl },
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/HTTP 401/);
  });
});
