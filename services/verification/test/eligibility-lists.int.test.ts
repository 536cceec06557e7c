import { verificationEligibilityListV1 as v1 } from '@eligo/proto';
import { createFieldCipher } from '@eligo/runtime';
import type { AppContext } from '../src/app/context';
import { matchEligibilityList } from '../src/app/eligibility-list-match';
import { emptySubject, type Subject } from '../src/domain/subject';
import { failure, newProgram, startVerification, type Harness } from './support';

type Row = Partial<v1.EligibilityListRow>;
type Part = v1.ImportEligibilityListRequest;

const start = (programId: string, format = 'csv'): Part => ({
  part: { $case: 'start', start: { programId, format } },
});
const rows = (...list: Row[]): Part => ({
  part: {
    $case: 'rows',
    rows: { rows: list.map((r, i) => v1.EligibilityListRow.create({ line: i + 2, ...r })) },
  },
});

async function* stream(...parts: (Part | Error)[]): AsyncGenerator<Part> {
  for (const part of parts) {
    if (part instanceof Error) throw part;
    yield part;
  }
}

/** ImportEligibilityList / GetEligibilityList / DeleteEligibilityList and the LIST match, on real Postgres. */
describe('eligibility lists', () => {
  let h: Harness;
  let app: AppContext;
  let programId = '';
  beforeAll(async () => {
    h = await startVerification();
    programId = (await newProgram(h.programs)).programId;
    // What the match reads of the context: the pool and the list's key, derived as the service derives it.
    app = {
      db: h.db,
      eligibilityList: createFieldCipher(h.sut.encryptionKey, 'verification.eligibility-list'),
    } as Partial<AppContext> as AppContext;
  });
  afterAll(async () => {
    await h?.stop();
  });

  const upload = (...parts: (Part | Error)[]) =>
    h.client.clientStream('importEligibilityList', stream(...parts));
  const get = () => h.client.unary('getEligibilityList', { programId });
  const person = (fields: Partial<Subject> & { memberId?: string }): Subject => ({
    ...emptySubject(),
    ...fields,
  });
  const matches = (s: Subject) => matchEligibilityList(app, programId, s);
  const rowCount = async (listId?: string) => {
    const q = h.db('eligibility_list_rows');
    if (listId) void q.where({ list_id: listId });
    return Number((await q.count<{ count: string }[]>('* as count'))[0]!.count);
  };

  it('imports rows as keyed HMACs, with counts, refusals and duplicates', async () => {
    const reply = await upload(
      start(programId),
      rows(
        { email: 'Ann.Lee@Example.com' },
        { memberId: 'M-0042' },
        { firstName: 'Bob', lastName: 'Stone', birthDate: '1990-05-06' },
        { email: 'ann.lee@example.com ' },
        { email: 'broken' },
      ),
      rows({ line: 9, refusal: 'the row does not have one value per header column' }),
    );
    expect(reply).toMatchObject({ rowsRead: 6, rowsStored: 4, rowsRefused: 2, duplicates: 1 });
    expect(reply.refusals).toEqual([
      { line: 6, reason: 'email is not an email address' },
      { line: 9, reason: 'the row does not have one value per header column' },
    ]);
    expect(reply.list).toMatchObject({
      programId,
      version: 1,
      rowCount: 4,
      identifierCount: 3,
      format: 'csv',
    });
    expect((await get()).list).toMatchObject({ version: 1, rowCount: 4 });
    // Nothing of the values is stored: 32-byte HMACs only.
    const stored = await h.db('eligibility_list_rows').select('kind', 'hmac');
    expect(stored).toHaveLength(3);
    for (const row of stored) expect((row.hmac as Buffer).length).toBe(32);
    expect(JSON.stringify(stored)).not.toMatch(/ann|m-0042|stone/i);
  });

  it('matches a submission by any listed identifier, normalised, and nothing else', async () => {
    expect(await matches(person({ email: ' ANN.LEE@example.COM' }))).toBe(true);
    expect(await matches(person({ email: 'x@y.org', memberId: 'm-0042' }))).toBe(true);
    expect(await matches(person({ firstName: 'BOB', lastName: ' stone', birthDate: '1990-05-06' }))).toBe(
      true,
    );
    expect(await matches(person({ firstName: 'Bob', lastName: 'Stone', birthDate: '1990-05-07' }))).toBe(
      false,
    );
    expect(await matches(person({ email: 'someone@else.org' }))).toBe(false);
    // Another program's submissions do not see this list.
    expect(await matchEligibilityList(app, 'f'.repeat(24), person({ email: 'ann.lee@example.com' }))).toBe(
      false,
    );
  });

  it('looks a submission up through the primary key', async () => {
    await h.db.transaction(async (trx) => {
      await trx.raw('set local enable_seqscan = off');
      const plan = await trx.raw<{ rows: { 'QUERY PLAN': string }[] }>(
        `explain select 1 from eligibility_list_rows r join eligibility_lists l on l.id = r.list_id
          where l.program_id = ? and l.state = 'active'
            and (r.kind, r.hmac) in (select * from unnest(?::smallint[], ?::bytea[])) limit 1`,
        [programId, [1], [Buffer.alloc(32)]],
      );
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/eligibility_list_rows_pkey/);
    });
  });

  it('replaces the active version atomically and drops the replaced rows', async () => {
    const first = (await get()).list!;
    const firstId = (await h.db('eligibility_lists').where({ program_id: programId, version: 1 }).first()).id;
    const reply = await upload(start(programId, 'ndjson'), rows({ email: 'new@example.com' }));
    expect(reply.list).toMatchObject({ version: 2, rowCount: 1, format: 'ndjson' });
    expect(reply.list!.activatedAt!.getTime()).toBeGreaterThanOrEqual(first.activatedAt!.getTime());
    expect(await matches(person({ email: 'new@example.com' }))).toBe(true);
    expect(await matches(person({ email: 'ann.lee@example.com' }))).toBe(false);
    expect(await rowCount(String(firstId))).toBe(0);
    const states = await h
      .db('eligibility_lists')
      .where({ program_id: programId })
      .orderBy('version')
      .pluck('state');
    expect(states).toEqual(['replaced', 'active']);
  });

  it('leaves the active version as it was when an import fails, and deletes its rows', async () => {
    const before = await rowCount();
    await expect(
      upload(start(programId), rows({ email: 'partial@example.com' }), new Error('the upload broke off')),
    ).rejects.toThrow();
    // The server learns of the cancel asynchronously: wait for its cleanup.
    for (let i = 0; i < 50 && (await h.db('eligibility_lists').where({ state: 'importing' }).first()); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await h.db('eligibility_lists').where({ state: 'importing' }).first()).toBeUndefined();
    expect((await get()).list).toMatchObject({ version: 2 });
    expect(await matches(person({ email: 'partial@example.com' }))).toBe(false);
    expect(await matches(person({ email: 'new@example.com' }))).toBe(true);
    expect(await rowCount()).toBe(before);
  });

  it('refuses a malformed stream, an oversized batch and an unknown program', async () => {
    expect(await failure(upload(rows({ email: 'a@b.co' })))).toMatchObject({ code: 3 });
    expect(await failure(upload(start(programId), start(programId)))).toMatchObject({ code: 3 });
    expect(await failure(upload(start(programId, 'xlsx')))).toMatchObject({ code: 3 });
    const big = rows(...Array.from({ length: 5001 }, (_, i) => ({ email: `p${i}@example.com` })));
    expect(await failure(upload(start(programId), big))).toMatchObject({ code: 3 });
    expect(await failure(upload(start('0'.repeat(24))))).toMatchObject({ code: 5 });
    expect((await get()).list).toMatchObject({ version: 2 });
    expect(await h.db('eligibility_lists').where({ state: 'importing' }).first()).toBeUndefined();
  });

  it('lets two uploads of one program run at once: each gets its version, the last activated wins', async () => {
    const [a, b] = await Promise.all([
      upload(start(programId), rows({ email: 'one@example.com' })),
      upload(start(programId), rows({ email: 'two@example.com' })),
    ]);
    expect([a.list!.version, b.list!.version].sort()).toEqual([3, 4]);
    const active = await h.db('eligibility_lists').where({ program_id: programId, state: 'active' });
    expect(active).toHaveLength(1);
    expect((await get()).list!.version).toBe(Number(active[0].version));
  });

  it('deletes the list: every version and row', async () => {
    await h.client.unary('deleteEligibilityList', { programId });
    expect(await failure(get())).toMatchObject({ code: 5 });
    expect(await failure(h.client.unary('deleteEligibilityList', { programId }))).toMatchObject({ code: 5 });
    expect(await h.db('eligibility_lists').where({ program_id: programId }).first()).toBeUndefined();
    expect(await rowCount()).toBe(0);
    expect(await matches(person({ email: 'new@example.com' }))).toBe(false);
  });
  it('refuses an upload whose list was deleted while it ran, and keeps nothing of it', async () => {
    await upload(start(programId), rows({ email: 'kept@example.com' }));
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* slow(): AsyncGenerator<Part> {
      yield start(programId);
      yield rows({ email: 'late@example.com' });
      await gate;
    }
    const pending = failure(h.client.clientStream('importEligibilityList', slow()));
    for (let i = 0; i < 50 && !(await h.db('eligibility_lists').where({ state: 'importing' }).first()); i++)
      await new Promise((r) => setTimeout(r, 50));
    await h.client.unary('deleteEligibilityList', { programId });
    release();
    expect(await pending).toMatchObject({ codeName: 'ALREADY_EXISTS' });
    expect(await failure(get())).toMatchObject({ code: 5 });
    expect(await h.db('eligibility_lists').where({ program_id: programId }).first()).toBeUndefined();
    expect(await rowCount()).toBe(0);
  });
});
