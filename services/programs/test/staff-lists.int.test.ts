import { createHash } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { programsProgramV1, programsV1 } from '@eligo/proto';
import {
  failure,
  newAccount,
  newProgram,
  OfferType,
  ProgramMode,
  startPrograms,
  TokenRole,
  type Harness,
} from './support';

/**
 * The staff console's lists: ListAccounts, GetAccount, ListAccessTokens, ListPrograms. Each harness has a
 * fresh database, so a listing without filter sees exactly the rows this file made.
 */
describe('staff console lists', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startPrograms();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const UNKNOWN = '0123456789abcdef01234567';
  const table = (name: string) => h.db.withSchema('programs').table(name);

  /** Every page of a listing, following next_page_token until it is empty. */
  async function allPages<T>(
    fetch: (pageToken: string) => Promise<{ items: T[]; nextPageToken: string }>,
  ): Promise<T[][]> {
    const pages: T[][] = [];
    let pageToken = '';
    do {
      const page = await fetch(pageToken);
      pages.push(page.items);
      pageToken = page.nextPageToken;
      if (pages.length > 100) throw new Error('paging does not end');
    } while (pageToken !== '');
    return pages;
  }

  /** Ids in list order, straight from the table (the order the lists promise). */
  async function idsInOrder(name: string, where: Record<string, string> = {}): Promise<string[]> {
    const rows = (await table(name)
      .where(where)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .select('id')) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Gives rows one created_at, so that only the id orders them (ties are the hard case of keyset paging). */
  async function sameCreatedAt(name: string, ids: string[], at: Date): Promise<void> {
    await table(name).whereIn('id', ids).update({ created_at: at });
  }

  const expectInvalid = async (call: Promise<unknown>, message: string) => {
    const err = await failure(call);
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.errorIds).toEqual(['invalidRequest']);
    expect(err.message).toBe(message);
  };
  const expectAccountNotFound = async (call: Promise<unknown>) => {
    const err = await failure(call);
    expect(err.code).toBe(status.NOT_FOUND);
    expect(err.message).toBe('Account not found');
  };

  describe('ListAccounts and GetAccount', () => {
    const listAccounts = (req: Partial<programsV1.ListAccountsRequest> = {}) =>
      h.client.unary('listAccounts', { pageSize: 0, pageToken: '', nameContains: '', ...req });
    const accountPages = (req: Partial<programsV1.ListAccountsRequest>) =>
      allPages(async (pageToken) => {
        const page = await listAccounts({ ...req, pageToken });
        return { items: page.accounts, nextPageToken: page.nextPageToken };
      });

    it('pages through every account newest first, ties by id, with no duplicate and no gap', async () => {
      const made: string[] = [];
      for (let i = 0; i < 7; i++) made.push(await newAccount(h.client, `Paging ${i}`));
      // Four of them in one millisecond: the id alone orders them, also across a page boundary.
      await sameCreatedAt('accounts', made.slice(1, 5), new Date('2026-01-02T03:04:05.678Z'));

      const expected = await idsInOrder('accounts');
      const pages = await accountPages({ pageSize: 3 });
      expect(pages.map((p) => p.length)).toEqual(
        Array.from({ length: Math.ceil(expected.length / 3) }, (_, i) =>
          Math.min(3, expected.length - 3 * i),
        ),
      );
      const listed = pages.flat().map((a) => a.accountId);
      expect(listed).toEqual(expected);
      expect(new Set(listed).size).toBe(listed.length);
      expect(listed).toEqual(expect.arrayContaining(made));
    });

    it('lists no row twice and skips none when accounts are created between pages', async () => {
      for (let i = 0; i < 4; i++) await newAccount(h.client, `Growing ${i}`);
      const before = await idsInOrder('accounts');
      const first = await listAccounts({ pageSize: 2 });
      const late = await newAccount(h.client, 'Growing late');
      const rest = await allPages(async (pageToken) => {
        const page = await listAccounts({ pageSize: 2, pageToken: pageToken || first.nextPageToken });
        return { items: page.accounts, nextPageToken: page.nextPageToken };
      });
      const listed = [...first.accounts, ...rest.flat()].map((a) => a.accountId);
      // The new account is newer than the position: it belongs before the first page, not in the rest.
      expect(listed).toEqual(before);
      expect(listed).not.toContain(late);
      expect((await listAccounts({ pageSize: 1 })).accounts[0]!.accountId).toBe(late);
    });

    it('defaults to 25 per page and gives no token on the last page', async () => {
      for (let i = 0; i < 26; i++) await newAccount(h.client, `Default size ${i}`);
      const first = await listAccounts();
      expect(first.accounts).toHaveLength(25);
      expect(first.nextPageToken).not.toBe('');
      const all = await listAccounts({ pageSize: 100 });
      const count = (await idsInOrder('accounts')).length;
      expect(all.accounts).toHaveLength(Math.min(100, count));
      if (count <= 100) expect(all.nextPageToken).toBe('');
    });

    it('counts live tokens and programs, in the list and in GetAccount', async () => {
      const accountId = await newAccount(h.client, 'Counted Co');
      const tokens = [];
      for (const name of ['a', 'b', 'c'])
        tokens.push(await h.client.unary('createAccessToken', { accountId, name, roles: [] }));
      await h.client.unary('revokeAccessToken', { accountId, tokenId: tokens[0]!.tokenId });
      await newProgram(h.client, accountId);
      await newProgram(h.client, accountId, { mode: ProgramMode.PROGRAM_MODE_LIVE });
      const other = await newAccount(h.client, 'Uncounted Co');
      await newProgram(h.client, other);
      await h.client.unary('createAccessToken', { accountId: other, name: 'x', roles: [] });

      const created = (await table('accounts').where({ id: accountId }).first()) as { created_at: Date };
      const expected = {
        accountId,
        name: 'Counted Co',
        createdAt: created.created_at,
        tokenCount: 2,
        programCount: 2,
      };
      expect((await h.client.unary('getAccount', { accountId })).account).toEqual(expected);
      const listed = await listAccounts({ nameContains: 'counted co' });
      expect(listed.accounts).toEqual([
        {
          accountId: other,
          name: 'Uncounted Co',
          createdAt: expect.any(Date),
          tokenCount: 1,
          programCount: 1,
        },
        expected,
      ]);
      const fresh = await newAccount(h.client, 'Fresh Co');
      expect((await h.client.unary('getAccount', { accountId: fresh })).account).toMatchObject({
        tokenCount: 0,
        programCount: 0,
      });
    });

    it('filters by a name substring ignoring case, wildcards taken literally', async () => {
      const names = [
        'Filter Kettle Works',
        'kettle & co',
        'KETTLEDRUM',
        'Kettle 100% Off',
        'Ket_tle',
        'Pots',
      ];
      const ids = new Map<string, string>();
      for (const name of names) ids.set(name, await newAccount(h.client, name));
      const named = async (nameContains: string) =>
        (await accountPages({ nameContains, pageSize: 2 })).flat().map((a) => a.name);

      expect((await named('kEtTlE')).sort()).toEqual(
        ['Filter Kettle Works', 'kettle & co', 'KETTLEDRUM', 'Kettle 100% Off'].sort(),
      );
      expect(await named('100%')).toEqual(['Kettle 100% Off']);
      expect(await named('%')).toEqual(['Kettle 100% Off']);
      // As a wildcard, _ would match "Kettle" ("ett"); taken literally, no name contains "e_t".
      expect(await named('e_t')).toEqual([]);
      expect(await named('_')).toEqual(['Ket_tle']);
      expect(await named('no such name')).toEqual([]);
      expect((await listAccounts({ nameContains: 'no such name' })).nextPageToken).toBe('');
    });

    it('refuses bad page sizes, tokens it did not give, and bad filters with INVALID_ARGUMENT', async () => {
      await expectInvalid(listAccounts({ pageSize: 101 }), 'pageSize: must be between 1 and 100 (0 = 25)');
      await expectInvalid(listAccounts({ pageSize: -5 }), 'pageSize: must be between 1 and 100 (0 = 25)');
      await expectInvalid(
        listAccounts({ pageToken: 'garbage' }),
        'pageToken: is not a nextPageToken of this list',
      );
      const token = (await listAccounts({ pageSize: 1 })).nextPageToken;
      await expectInvalid(
        listAccounts({ pageToken: `${token}x` }),
        'pageToken: is not a nextPageToken of this list',
      );
      await expectInvalid(
        listAccounts({ nameContains: 'x'.repeat(101) }),
        'nameContains: must be at most 100 characters',
      );
    });

    it('GetAccount: NOT_FOUND for an unknown or malformed id, INVALID_ARGUMENT for none', async () => {
      await expectAccountNotFound(h.client.unary('getAccount', { accountId: UNKNOWN }));
      await expectAccountNotFound(h.client.unary('getAccount', { accountId: 'not-an-id' }));
      await expectInvalid(h.client.unary('getAccount', { accountId: '' }), 'accountId: is required');
    });
  });

  describe('ListAccessTokens', () => {
    const listTokens = (req: Partial<programsV1.ListAccessTokensRequest>) =>
      h.client.unary('listAccessTokens', { accountId: '', pageSize: 0, pageToken: '', ...req });

    it('pages through an account’s tokens, revoked ones included, never another account’s', async () => {
      const accountId = await newAccount(h.client, 'Token Co');
      const other = await newAccount(h.client, 'Other Token Co');
      const created: programsV1.CreateAccessTokenResponse[] = [];
      for (let i = 0; i < 5; i++) {
        created.push(
          await h.client.unary('createAccessToken', {
            accountId,
            name: `token ${i}`,
            roles: i === 0 ? [TokenRole.TOKEN_ROLE_PII, TokenRole.TOKEN_ROLE_REPORTER] : [],
          }),
        );
        await h.client.unary('createAccessToken', { accountId: other, name: `other ${i}`, roles: [] });
      }
      await sameCreatedAt(
        'access_tokens',
        created.slice(1, 4).map((t) => t.tokenId),
        new Date('2026-02-03T04:05:06.789Z'),
      );
      await h.client.unary('revokeAccessToken', { accountId, tokenId: created[0]!.tokenId });

      const pages = await allPages(async (pageToken) => {
        const page = await listTokens({ accountId, pageSize: 2, pageToken });
        return { items: page.tokens, nextPageToken: page.nextPageToken };
      });
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      const listed = pages.flat();
      expect(listed.map((t) => t.tokenId)).toEqual(
        await idsInOrder('access_tokens', { account_id: accountId }),
      );
      expect(new Set(listed.map((t) => t.tokenId))).toEqual(new Set(created.map((t) => t.tokenId)));

      const revoked = listed.find((t) => t.tokenId === created[0]!.tokenId)!;
      expect(revoked).toEqual({
        tokenId: created[0]!.tokenId,
        accountId,
        name: 'token 0',
        roles: [TokenRole.TOKEN_ROLE_REPORTER, TokenRole.TOKEN_ROLE_PII],
        createdAt: created[0]!.createdAt,
        revokedAt: expect.any(Date),
      });
      for (const token of listed.filter((t) => t !== revoked)) {
        expect(token).toEqual({
          tokenId: expect.any(String),
          accountId,
          name: expect.stringMatching(/^token [1-4]$/),
          roles: [],
          createdAt: expect.any(Date),
          revokedAt: undefined,
        });
      }
    });

    it('answers no credential: neither token, client id or secret, nor their hashes', async () => {
      const accountId = await newAccount(h.client, 'Secretive Co');
      const created = await h.client.unary('createAccessToken', { accountId, name: 'ci', roles: [] });
      const { tokens } = await listTokens({ accountId });
      const text = JSON.stringify(tokens);
      const sha = (v: string) => createHash('sha256').update(v).digest();
      for (const secret of [created.token, created.clientSecret]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(sha(secret).toString('hex'));
        expect(text).not.toContain(sha(secret).toString('base64'));
      }
      expect(text).not.toContain(created.clientId);
    });

    it('NOT_FOUND for an unknown or malformed account; INVALID_ARGUMENT for none or a bad page', async () => {
      await expectAccountNotFound(listTokens({ accountId: UNKNOWN }));
      await expectAccountNotFound(listTokens({ accountId: 'nope' }));
      await expectInvalid(listTokens({ accountId: '' }), 'accountId: is required');
      const accountId = await newAccount(h.client);
      await expectInvalid(
        listTokens({ accountId, pageToken: 'x' }),
        'pageToken: is not a nextPageToken of this list',
      );
      expect(await listTokens({ accountId })).toEqual({ tokens: [], nextPageToken: '' });
    });
  });

  describe('ListPrograms', () => {
    const listPrograms = (req: Partial<programsV1.ListProgramsRequest>) =>
      h.client.unary('listPrograms', {
        accountId: '',
        segment: '',
        mode: ProgramMode.PROGRAM_MODE_UNSPECIFIED,
        nameContains: '',
        pageSize: 0,
        pageToken: '',
        ...req,
      });
    const programPages = (req: Partial<programsV1.ListProgramsRequest>) =>
      allPages(async (pageToken) => {
        const page = await listPrograms({ ...req, pageToken });
        return { items: page.programs, nextPageToken: page.nextPageToken };
      });
    const listedIds = async (req: Partial<programsV1.ListProgramsRequest>) =>
      (await programPages({ pageSize: 2, ...req })).flat().map((p) => p.programId);

    let acme: string;
    let globex: string;
    /** Programs by name, made once for the filter tests. */
    const made = new Map<string, programsProgramV1.Program>();
    beforeAll(async () => {
      acme = await newAccount(h.client, 'Acme Programs');
      globex = await newAccount(h.client, 'Globex Programs');
      const specs: [string, string, string, programsProgramV1.ProgramMode][] = [
        ['Acme students', acme, 'student', ProgramMode.PROGRAM_MODE_TEST],
        ['Acme students live', acme, 'student', ProgramMode.PROGRAM_MODE_LIVE],
        ['Acme heroes', acme, 'military', ProgramMode.PROGRAM_MODE_LIVE],
        ['Acme teachers', acme, 'teacher', ProgramMode.PROGRAM_MODE_TEST],
        ['Acme seniors', acme, 'senior', ProgramMode.PROGRAM_MODE_TEST],
        ['Globex students', globex, 'student', ProgramMode.PROGRAM_MODE_LIVE],
        ['Globex heroes', globex, 'military', ProgramMode.PROGRAM_MODE_TEST],
      ];
      for (const [name, accountId, segment, mode] of specs)
        made.set(name, await newProgram(h.client, accountId, { name, segment, mode }));
      // Three in one millisecond across two accounts: ties ordered by id in every filtered list too.
      await sameCreatedAt(
        'programs',
        ['Acme students live', 'Acme heroes', 'Globex students'].map((n) => made.get(n)!.programId),
        new Date('2026-03-04T05:06:07.890Z'),
      );
    });
    const idsOf = async (where: Record<string, string>, names: string[]) => {
      const wanted = new Set(names.map((n) => made.get(n)!.programId));
      return (await idsInOrder('programs', where)).filter((id) => wanted.has(id));
    };

    it('pages through every program with no duplicate and no gap, as summaries of what GetProgram returns', async () => {
      const pages = await programPages({ pageSize: 3 });
      const listed = pages.flat();
      expect(listed.map((p) => p.programId)).toEqual(await idsInOrder('programs'));
      expect(new Set(listed.map((p) => p.programId)).size).toBe(listed.length);
      expect(pages.slice(0, -1).every((p) => p.length === 3)).toBe(true);

      const { program } = await h.client.unary('getProgram', {
        programId: made.get('Acme heroes')!.programId,
        accountId: '',
      });
      expect(listed.find((p) => p.programId === program!.programId)).toEqual({
        programId: program!.programId,
        accountId: acme,
        name: 'Acme heroes',
        segment: 'military',
        mode: ProgramMode.PROGRAM_MODE_LIVE,
        offerType: OfferType.OFFER_TYPE_NO_CODE,
        createdAt: program!.createdAt,
        updatedAt: program!.updatedAt,
      });
    });

    it('lists only the programs of the account asked for', async () => {
      const acmeIds = await listedIds({ accountId: acme });
      expect(acmeIds).toEqual(await idsInOrder('programs', { account_id: acme }));
      expect(acmeIds).toHaveLength(5);
      const all = await programPages({ accountId: globex, pageSize: 1 });
      expect(all.flat().every((p) => p.accountId === globex)).toBe(true);
      expect(
        all
          .flat()
          .map((p) => p.name)
          .sort(),
      ).toEqual(['Globex heroes', 'Globex students']);
    });

    it('filters by segment, mode and name, alone and combined', async () => {
      const ids = (...names: string[]) => names.map((n) => made.get(n)!.programId);
      /** The whole filtered list equals the table's rows in list order, and holds the programs named. */
      const expectListed = async (
        req: Partial<programsV1.ListProgramsRequest>,
        where: Record<string, string>,
        names: string[],
      ) => {
        const listed = await listedIds(req);
        expect(listed).toEqual(await idsInOrder('programs', where));
        expect(listed).toEqual(expect.arrayContaining(ids(...names)));
        return listed;
      };
      await expectListed({ segment: 'student' }, { segment: 'student' }, [
        'Acme students',
        'Acme students live',
        'Globex students',
      ]);
      await expectListed({ mode: ProgramMode.PROGRAM_MODE_LIVE }, { mode: 'LIVE' }, [
        'Acme students live',
        'Acme heroes',
        'Globex students',
      ]);
      const acmeTest = await expectListed(
        { mode: ProgramMode.PROGRAM_MODE_TEST, accountId: acme },
        { account_id: acme, mode: 'TEST' },
        ['Acme students', 'Acme teachers', 'Acme seniors'],
      );
      expect(acmeTest).toHaveLength(3);
      expect(await listedIds({ nameContains: 'HEROES' })).toEqual(
        (await idsInOrder('programs')).filter((id) => ids('Acme heroes', 'Globex heroes').includes(id)),
      );
      expect(
        await listedIds({ accountId: globex, segment: 'student', mode: ProgramMode.PROGRAM_MODE_LIVE }),
      ).toEqual(ids('Globex students'));
      expect(await listedIds({ accountId: globex, segment: 'teacher' })).toEqual([]);
    });

    it('NOT_FOUND for an unknown account; INVALID_ARGUMENT for an unknown segment, mode or a bad page', async () => {
      await expectAccountNotFound(listPrograms({ accountId: UNKNOWN }));
      await expectAccountNotFound(listPrograms({ accountId: 'bad' }));
      await expectInvalid(listPrograms({ segment: 'pirate' }), 'segment: "pirate" is not a segment');
      await expectInvalid(
        listPrograms({ mode: 7 as programsProgramV1.ProgramMode }),
        'mode: unknown value 7',
      );
      await expectInvalid(
        listPrograms({ pageSize: 1000, segment: 'pirate' }),
        'pageSize: must be between 1 and 100 (0 = 25); segment: "pirate" is not a segment',
      );
    });
  });

  describe('the schema', () => {
    it('keeps listed created_at to the millisecond and has an index for every list order', async () => {
      const columns = (await h.db.raw(
        `select table_name, datetime_precision from information_schema.columns
          where table_schema = 'programs' and column_name = 'created_at'
            and table_name in ('accounts', 'access_tokens', 'programs') order by table_name`,
      )) as { rows: { table_name: string; datetime_precision: number }[] };
      expect(columns.rows).toEqual([
        { table_name: 'access_tokens', datetime_precision: 3 },
        { table_name: 'accounts', datetime_precision: 3 },
        { table_name: 'programs', datetime_precision: 3 },
      ]);
      const indexes = (await h.db.raw(
        `select indexname, indexdef from pg_indexes where schemaname = 'programs' and indexname like '%created_idx'`,
      )) as { rows: { indexname: string; indexdef: string }[] };
      const defs = Object.fromEntries(
        indexes.rows.map((r) => [r.indexname, r.indexdef.replace(/^.* USING btree /, '')]),
      );
      expect(defs).toEqual({
        accounts_created_idx: '(created_at DESC, id DESC)',
        access_tokens_account_created_idx: '(account_id, created_at DESC, id DESC)',
        programs_created_idx: '(created_at DESC, id DESC)',
        programs_account_created_idx: '(account_id, created_at DESC, id DESC)',
        programs_segment_created_idx: '(segment, created_at DESC, id DESC)',
        programs_mode_created_idx: '(mode, created_at DESC, id DESC)',
        // 001's, not a list's: the send-link requests of a program.
        send_link_requests_program_created_idx: expect.any(String),
      });
    });
  });
});
