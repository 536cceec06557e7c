import {
  failure,
  flowCalls,
  importOrganization,
  jane,
  newProgram,
  startVerification,
  type Harness,
} from './support';

/** SearchVerifications (staff): by tracking id, by email (its keyed HMAC), by program, keyset paged. */
describe('verification search', () => {
  let h: Harness;
  const calls = flowCalls(() => h);
  let org = 0;
  beforeAll(async () => {
    h = await startVerification();
    org = await importOrganization(h, (await newProgram(h.programs)).programId, 'Search University');
  });
  afterAll(async () => {
    await h?.stop();
  });

  const search = (fields: {
    trackingId?: string;
    email?: string;
    programId?: string;
    pageSize?: number;
    pageToken?: string;
  }) =>
    h.client.unary('searchVerifications', {
      trackingId: fields.trackingId ?? '',
      email: fields.email ?? '',
      programId: fields.programId ?? '',
      pageSize: fields.pageSize ?? 0,
      pageToken: fields.pageToken ?? '',
    });
  const idsOf = (reply: { verifications: { verificationId: string }[] }) =>
    reply.verifications.map((v) => v.verificationId);

  /** A verification of the program whose personal info (with this email) reached the instant match. */
  async function submitted(programId: string, email: string, trackingId = ''): Promise<string> {
    const reply = await calls.submitToProgram(
      programId,
      'collectStudentPersonalInfo',
      jane({ email, organization: { id: org, name: '' } }),
      trackingId,
    );
    return reply.verification!.verificationId;
  }

  it('finds a tracking id across programs and accounts, newest first, with the summary of each', async () => {
    const first = await newProgram(h.programs);
    const second = await newProgram(h.programs);
    const older = (await calls.start(first.programId, 'track-across')).verificationId;
    const newer = (await calls.start(second.programId, ' track-across ')).verificationId;
    await calls.start(first.programId, 'track-other');

    const reply = await search({ trackingId: ' track-across' });
    expect(idsOf(reply)).toEqual([newer, older]);
    expect(reply.nextPageToken).toBe('');
    expect(reply.verifications[1]).toEqual({
      verificationId: older,
      programId: first.programId,
      accountId: first.accountId,
      segment: 'student',
      currentStep: 'collectStudentPersonalInfo',
      testMode: true,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
      trackingId: 'track-across',
    });
    // With the program too, only that program's.
    expect(idsOf(await search({ trackingId: 'track-across', programId: first.programId }))).toEqual([older]);
    expect(idsOf(await search({ trackingId: 'track-none' }))).toEqual([]);
  });

  it('finds a person by email however it is spelled, through the stored HMAC only', async () => {
    const program = await newProgram(h.programs);
    const other = await newProgram(h.programs);
    const a = await submitted(program.programId, 'Ann.Search@Example.com');
    const b = await submitted(other.programId, 'ann.search@example.com ');
    await submitted(program.programId, 'someone.else@example.com');
    // Started only: no personal info, nothing to find by email.
    await calls.start(program.programId);

    expect(idsOf(await search({ email: '  ANN.SEARCH@example.COM ' }))).toEqual([b, a]);
    expect(idsOf(await search({ email: 'ann.search@example.com', programId: program.programId }))).toEqual([
      a,
    ]);
    expect(idsOf(await search({ email: 'nobody@example.com' }))).toEqual([]);

    // The address is stored nowhere in the clear: only the encrypted person and the 32-byte HMAC.
    const row = await h.db('verifications').where({ id: a }).first('person', 'person_email_hash');
    expect(row.person.toString('latin1')).not.toContain('ann.search');
    expect(row.person_email_hash).toHaveLength(32);
  });

  it('pages through a program newest first, listing each verification once', async () => {
    const program = await newProgram(h.programs);
    const started: string[] = [];
    for (let i = 0; i < 7; i++) started.push((await calls.start(program.programId)).verificationId);
    // Three of them in the same microsecond, two a microsecond apart: the id orders a tie, the position keeps
    // the microseconds a JavaScript Date would lose.
    await h
      .db('verifications')
      .whereIn('id', started.slice(1, 4))
      .update({ created_at: h.db.raw(`'2026-01-02T03:04:05.000001Z'::timestamptz`) });
    await h
      .db('verifications')
      .where({ id: started[4] })
      .update({ created_at: h.db.raw(`'2026-01-02T03:04:05.000002Z'::timestamptz`) });

    const seen: string[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const reply = await search({ programId: program.programId, pageSize: 2, pageToken });
      expect(reply.verifications.length).toBeLessThanOrEqual(2);
      seen.push(...idsOf(reply));
      pageToken = reply.nextPageToken;
      pages += 1;
    } while (pageToken !== '' && pages < 10);

    const rows = await h
      .db('verifications')
      .where({ program_id: program.programId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .pluck('id');
    expect(seen).toEqual(rows);
    expect(new Set(seen).size).toBe(7);
    expect(pages).toBe(4);
    // The default page holds them all.
    expect(idsOf(await search({ programId: program.programId }))).toEqual(rows);
  });

  it('does not list verifications started after the first page before the position', async () => {
    const program = await newProgram(h.programs);
    for (let i = 0; i < 3; i++) await calls.start(program.programId);
    const first = await search({ programId: program.programId, pageSize: 2 });
    const late = (await calls.start(program.programId)).verificationId;
    const second = await search({
      programId: program.programId,
      pageSize: 2,
      pageToken: first.nextPageToken,
    });
    expect(idsOf(second)).toHaveLength(1);
    expect([...idsOf(first), ...idsOf(second)]).not.toContain(late);
  });

  it('walks the index of the filter it is given', async () => {
    await h.db.transaction(async (trx) => {
      // A near-empty table is cheaper to scan; the question is which index serves each filter.
      await trx.raw('set local enable_seqscan = off');
      const plan = async (where: string) =>
        JSON.stringify(
          (
            (await trx.raw(
              `explain (format json) select id from verifications where ${where}
                order by created_at desc, id desc limit 51`,
            )) as { rows: unknown[] }
          ).rows,
        );
      expect(await plan(`tracking_id = 'x'`)).toContain('verifications_search_tracking_idx');
      expect(await plan(`person_email_hash = '\\x00'::bytea`)).toContain('verifications_search_email_idx');
      expect(await plan(`program_id = '0123456789abcdef01234567'`)).toContain(
        'verifications_search_program_idx',
      );
    });
  });

  it.each([
    ['no filter', {}],
    ['only spaces', { trackingId: '  ', email: ' ' }],
    ['a malformed program id', { programId: 'nope' }],
    ['a page size past 100', { programId: '0123456789abcdef01234567', pageSize: 101 }],
    ['a token it did not give', { programId: '0123456789abcdef01234567', pageToken: 'eyJ0IjoxfQ' }],
    ['a NUL in the email', { email: 'a\u0000@example.com' }],
  ])('refuses %s: INVALID_ARGUMENT invalidRequest', async (_what, fields) => {
    const err = await failure(search(fields));
    expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
  });
});
