import { status } from '@grpc/grpc-js';
import { programsProgramV1 } from '@eligo/proto';
import { ecP256, ed25519, rsa } from './keys';
import {
  failure,
  newAccount,
  newProgram,
  outboxEvents,
  programDraft,
  startPrograms,
  type Harness,
} from './support';

const Program = programsProgramV1.Program;

/** Program.subject_token_key: stored, validated (a public key jose imports), updated and cleared. */
describe('subject_token_key', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    h = await startPrograms();
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const update = (programId: string, subjectTokenKey: string) =>
    h.client.unary('updateProgram', {
      programId,
      accountId,
      program: Program.create({ subjectTokenKey }),
      updateMask: ['subject_token_key'],
    });
  const storedKey = async (programId: string): Promise<string | null> => {
    const [row] = (await h.db
      .withSchema('programs')
      .table('programs')
      .where({ id: programId })
      .select('subject_token_key')) as { subject_token_key: string | null }[];
    return row!.subject_token_key;
  };

  it('is empty (null in the table) when not given', async () => {
    const program = await newProgram(h.client, accountId);
    expect(program.subjectTokenKey).toBe('');
    expect(await storedKey(program.programId)).toBeNull();
  });

  it('stores a public JWK and reads it back', async () => {
    const { publicJwk } = ecP256();
    const program = await newProgram(h.client, accountId, { subjectTokenKey: publicJwk });
    expect(program.subjectTokenKey).toBe(publicJwk);
    expect(await storedKey(program.programId)).toBe(publicJwk);
    const { program: read } = await h.client.unary('getProgram', { programId: program.programId, accountId });
    expect(read!.subjectTokenKey).toBe(publicJwk);
  });

  it.each([
    ['RSA', rsa()],
    ['Ed25519', ed25519()],
  ])('stores a PEM public key (%s), trimmed', async (_kind, key) => {
    const program = await newProgram(h.client, accountId, { subjectTokenKey: `${key.publicPem}\n` });
    expect(program.subjectTokenKey).toBe(key.publicPem.trim());
  });

  it.each<[string, string, string]>([
    [
      'a private JWK',
      ecP256().privateJwk,
      'subjectTokenKey: must be a public key; this JWK has the private or secret member "d"',
    ],
    ['a private PEM', rsa().privatePem, 'subjectTokenKey: must be a public key, not a private one'],
    [
      'garbage',
      'hunter2',
      'subjectTokenKey: must be a JWK (JSON with "kty") or a PEM public key (-----BEGIN PUBLIC KEY-----)',
    ],
    [
      'a truncated PEM',
      ecP256().publicPem.slice(0, 80) + '\n-----END PUBLIC KEY-----',
      'subjectTokenKey: must be a public key for ES256 (EC P-256), RS256 (RSA of 2048 bits or more) or ' +
        'EdDSA (Ed25519 or Ed448)',
    ],
  ])('refuses %s with INVALID_ARGUMENT invalidRequest and stores nothing', async (_case, key, message) => {
    const err = await failure(
      h.client.unary('createProgram', { program: programDraft(accountId, { subjectTokenKey: key }) }),
    );
    expect([err.code, err.errorIds, err.message]).toEqual([
      status.INVALID_ARGUMENT,
      ['invalidRequest'],
      message,
    ]);
  });

  it('is set, replaced and cleared through the update mask, each with ProgramUpdated', async () => {
    const created = await newProgram(h.client, accountId, { name: 'Keyed' });
    const first = ecP256();
    const second = ed25519();
    expect((await update(created.programId, first.publicJwk)).program!.subjectTokenKey).toBe(first.publicJwk);
    expect((await update(created.programId, second.publicPem)).program!.subjectTokenKey).toBe(
      second.publicPem.trim(),
    );
    expect(await storedKey(created.programId)).toBe(second.publicPem.trim());

    // Another field's update keeps it.
    const renamed = await h.client.unary('updateProgram', {
      programId: created.programId,
      accountId,
      program: Program.create({ name: 'Renamed' }),
      updateMask: ['name'],
    });
    expect(renamed.program!.subjectTokenKey).toBe(second.publicPem.trim());

    const cleared = await update(created.programId, '');
    expect(cleared.program!.subjectTokenKey).toBe('');
    expect(await storedKey(created.programId)).toBeNull();
    const types = (await outboxEvents(h.db, created.programId)).map((e) => e.type.split('.').pop());
    expect(types).toEqual([
      'ProgramCreated',
      'ProgramUpdated',
      'ProgramUpdated',
      'ProgramUpdated',
      'ProgramUpdated',
    ]);
  });

  it('refuses a bad key on update and keeps the stored one', async () => {
    const { publicJwk, privateJwk } = ecP256();
    const created = await newProgram(h.client, accountId, { subjectTokenKey: publicJwk });
    const err = await failure(update(created.programId, privateJwk));
    expect([err.code, err.errorIds]).toEqual([status.INVALID_ARGUMENT, ['invalidRequest']]);
    expect(err.message).toMatch(/^subjectTokenKey: must be a public key/);
    expect(await storedKey(created.programId)).toBe(publicJwk);
  });
});
