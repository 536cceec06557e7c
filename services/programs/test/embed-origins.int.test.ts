import { status } from '@grpc/grpc-js';
import { programsEventsV1, programsProgramV1 } from '@eligo/proto';
import {
  failure,
  newAccount,
  newProgram,
  outboxEvents,
  programDraft,
  startPrograms,
  type Harness,
} from './support';

/**
 * Program.embed_origins: the web origins allowed to embed the program's hosted verification page and to call
 * REST v2 from a browser. None unless set; stored normalised, returned by every read and carried by the
 * program's event snapshots; set, replaced and cleared by UpdateProgram; bad entries refused by name.
 */
describe('embedOrigins', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    h = await startPrograms();
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const read = async (programId: string) =>
    (await h.client.unary('getProgram', { programId, accountId })).program!;
  const update = (programId: string, fields: Partial<programsProgramV1.Program>, paths: string[]) =>
    h.client.unary('updateProgram', {
      programId,
      accountId,
      program: programsProgramV1.Program.create(fields),
      updateMask: paths,
    });
  /** The program snapshots of the ProgramCreated and ProgramUpdated events in the outbox, in order. */
  const snapshots = async (programId: string) =>
    (await outboxEvents(h.db, programId)).map(({ type, payload }) =>
      type === 'eligo.programs.v1.ProgramCreated'
        ? programsEventsV1.ProgramCreated.decode(payload).program!.embedOrigins
        : programsEventsV1.ProgramUpdated.decode(payload).program!.embedOrigins,
    );

  it('is empty unless set, and stored normalised on create', async () => {
    expect((await newProgram(h.client, accountId)).embedOrigins).toEqual([]);
    const created = await newProgram(h.client, accountId, {
      embedOrigins: [
        'https://Shop.Example:443',
        'https://checkout.shop.example:8443',
        'http://localhost:3000',
      ],
    });
    const normalised = [
      'https://shop.example',
      'https://checkout.shop.example:8443',
      'http://localhost:3000',
    ];
    expect(created.embedOrigins).toEqual(normalised);
    expect((await read(created.programId)).embedOrigins).toEqual(normalised);
    const [stored] = (await h.db
      .withSchema('programs')
      .table('programs')
      .where({ id: created.programId })
      .select('embed_origins')) as { embed_origins: string[] }[];
    expect(stored!.embed_origins).toEqual(normalised);
    expect(await snapshots(created.programId)).toEqual([normalised]);
  });

  it('is set, kept by other updates and cleared with [] by UpdateProgram (embed_origins)', async () => {
    const { programId } = await newProgram(h.client, accountId);
    const mask = ['embed_origins'];
    const set = await update(
      programId,
      { embedOrigins: ['HTTPS://A.EXAMPLE', 'http://127.0.0.1:5173'] },
      mask,
    );
    expect(set.program!.embedOrigins).toEqual(['https://a.example', 'http://127.0.0.1:5173']);
    await update(programId, { name: 'Renamed' }, ['name']);
    expect((await read(programId)).embedOrigins).toEqual(['https://a.example', 'http://127.0.0.1:5173']);
    const replaced = await update(programId, { embedOrigins: ['https://b.example'] }, mask);
    expect(replaced.program!.embedOrigins).toEqual(['https://b.example']);
    const cleared = await update(programId, { embedOrigins: [] }, mask);
    expect(cleared.program!.embedOrigins).toEqual([]);
    expect((await read(programId)).embedOrigins).toEqual([]);
    // Every change's ProgramUpdated snapshot carries the list as it then was.
    expect(await snapshots(programId)).toEqual([
      [],
      ['https://a.example', 'http://127.0.0.1:5173'],
      ['https://a.example', 'http://127.0.0.1:5173'],
      ['https://b.example'],
      [],
    ]);
  });

  it.each([
    [
      'a wildcard',
      ['https://*.example.com'],
      'embedOrigins: "https://*.example.com" is a wildcard, which is not allowed in this version: list each ' +
        'origin (https://shop.example.com)',
    ],
    [
      'a path (even a trailing slash)',
      ['https://shop.example/'],
      'embedOrigins: "https://shop.example/" must not have a path, query or fragment, not even a trailing "/" ' +
        '(an origin is scheme://host[:port])',
    ],
    [
      'plain http on a host that is not the local machine',
      ['http://shop.example'],
      'embedOrigins: "http://shop.example" must use https (http only for localhost and 127.0.0.1, for development)',
    ],
    [
      'one origin in two spellings',
      ['https://shop.example', 'https://SHOP.example:443'],
      'embedOrigins: https://shop.example is listed twice',
    ],
    [
      'more than 20 origins',
      Array.from({ length: 21 }, (_, i) => `https://s${i}.example`),
      'embedOrigins: at most 20 origins',
    ],
  ])(
    'refuses %s with INVALID_ARGUMENT naming the entry, on create and on update',
    async (_n, origins, message) => {
      const created = await failure(
        h.client.unary('createProgram', { program: programDraft(accountId, { embedOrigins: origins }) }),
      );
      expect(created).toMatchObject({ code: status.INVALID_ARGUMENT, errorIds: ['invalidRequest'], message });

      const { programId } = await newProgram(h.client, accountId, { embedOrigins: ['https://kept.example'] });
      const updated = await failure(update(programId, { embedOrigins: origins }, ['embed_origins']));
      expect(updated).toMatchObject({ code: status.INVALID_ARGUMENT, errorIds: ['invalidRequest'], message });
      expect((await read(programId)).embedOrigins).toEqual(['https://kept.example']);
    },
  );
});
