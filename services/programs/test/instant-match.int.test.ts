import { programsEventsV1, programsProgramV1 } from '@eligo/proto';
import { createFieldCipher } from '@eligo/runtime';
import {
  failure,
  newAccount,
  newProgram,
  outboxEvents,
  rowText,
  startPrograms,
  type Harness,
} from './support';

const { InstantSourceType: T } = programsProgramV1;
const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

/**
 * Program.instant_match (issue 22): the sources a live program asks, in order, and the HTTP endpoint with
 * its secret. The secret is only ever set: stored sealed with the master key, it appears in no reply or event
 * in clear; replies and snapshots carry it sealed, for the verification service to open.
 */
describe('instantMatch', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    h = await startPrograms({ ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8' });
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const open = (sealed: Uint8Array, programId: string) =>
    createFieldCipher(h.sut.encryptionKey, 'programs.instant-source-secret').decrypt(
      Buffer.from(sealed),
      programId,
    );
  const withSources = (url: string, key = secret): Partial<programsProgramV1.Program> => ({
    segment: 'employee',
    instantMatch: {
      sources: [
        { type: T.INSTANT_SOURCE_TYPE_LIST, subSegments: [] },
        { type: T.INSTANT_SOURCE_TYPE_HTTP, subSegments: [] },
      ],
      http: { url, secret: key, sealedSecret: Buffer.alloc(0) },
      emailLoop: true,
    },
  });
  const update = (programId: string, fields: Partial<programsProgramV1.Program>, paths: string[]) =>
    h.client.unary('updateProgram', {
      programId,
      accountId,
      program: programsProgramV1.Program.create(fields),
      updateMask: paths,
    });

  it('stores the sources and the sealed secret, shown sealed only, never in clear', async () => {
    const created = await newProgram(h.client, accountId, withSources('http://127.0.0.1:9/check'));
    const { programId } = created;
    expect(created.instantMatch!.sources.map((s) => s.type)).toEqual([
      T.INSTANT_SOURCE_TYPE_LIST,
      T.INSTANT_SOURCE_TYPE_HTTP,
    ]);
    expect(created.instantMatch!.http!.url).toBe('http://127.0.0.1:9/check');
    expect(created.instantMatch!.http!.secret).toBe('');
    expect(created.instantMatch!.emailLoop).toBe(true);
    expect(open(created.instantMatch!.http!.sealedSecret, programId)).toBe(secret);
    const read = (await h.client.unary('getProgram', { programId, accountId: '' })).program!;
    expect(open(read.instantMatch!.http!.sealedSecret, programId)).toBe(secret);

    const key = secret.slice('whsec_'.length);
    expect(await rowText(h.db, 'programs', programId)).not.toContain(key);
    for (const { payload } of await outboxEvents(h.db, programId)) {
      expect(payload.toString('latin1')).not.toContain(key);
      const program = programsEventsV1.ProgramCreated.decode(payload).program;
      if (program?.instantMatch?.http) expect(program.instantMatch.http.secret).toBe('');
    }
  });

  it('has none unless set, keeps the secret on other updates, clears it with the HTTP source', async () => {
    const plain = await newProgram(h.client, accountId, { segment: 'employee' });
    expect(plain.instantMatch).toEqual({ sources: [], http: undefined, emailLoop: false });

    const { programId } = await newProgram(h.client, accountId, withSources('http://127.0.0.1:9/a'));
    await update(programId, { name: 'Renamed' }, ['name']);
    const same = withSources('http://127.0.0.1:9/a', '').instantMatch!;
    const kept = (await update(programId, { instantMatch: same }, ['instant_match'])).program!;
    expect(open(kept.instantMatch!.http!.sealedSecret, programId)).toBe(secret);

    const moved = await failure(
      update(programId, { instantMatch: { ...same, http: { ...same.http!, url: 'http://127.0.0.1:9/b' } } }, [
        'instant_match',
      ]),
    );
    expect(moved.message).toContain('instantMatch.http.secret: is required with a new HTTP source URL');

    const listOnly = {
      sources: [{ type: T.INSTANT_SOURCE_TYPE_LIST, subSegments: [] }],
      http: undefined,
      emailLoop: false,
    };
    const cleared = (await update(programId, { instantMatch: listOnly }, ['instant_match'])).program!;
    expect(cleared.instantMatch).toEqual(listOnly);
    const [row] = (await h.db
      .withSchema('programs')
      .table('programs')
      .where({ id: programId })
      .select('instant_source_secret')) as { instant_source_secret: Buffer | null }[];
    expect(row!.instant_source_secret).toBeNull();
  });

  it('refuses a private address outside the allow-list and a bad secret, by name', async () => {
    const bad = await failure(
      h.client.unary('createProgram', {
        program: programsProgramV1.Program.create({
          accountId,
          name: 'P',
          ...withSources('http://10.1.2.3/check'),
        }),
      }),
    );
    expect(bad.codeName).toBe('INVALID_ARGUMENT');
    expect(bad.message).toContain('instantMatch.http.url: must not be a non-public IP address (private)');

    const weak = await failure(
      h.client.unary('createProgram', {
        program: programsProgramV1.Program.create({
          accountId,
          name: 'P',
          ...withSources('https://hr.example.com/', 'secret'),
        }),
      }),
    );
    expect(weak.message).toContain('instantMatch.http.secret: must be whsec_');
  });
});
