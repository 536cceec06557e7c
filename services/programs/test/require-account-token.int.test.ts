import { programsProgramV1 } from '@eligo/proto';
import { newAccount, newProgram, startPrograms, type Harness } from './support';

/**
 * Program.require_account_token_to_create: a program may admit new verifications only from callers with a
 * token of its account (the verification service enforces it); off unless set, on create or by update.
 */
describe('requireAccountTokenToCreate', () => {
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

  it('is off unless set, and kept as set on create', async () => {
    expect((await newProgram(h.client, accountId)).requireAccountTokenToCreate).toBe(false);
    const strict = await newProgram(h.client, accountId, { requireAccountTokenToCreate: true });
    expect(strict.requireAccountTokenToCreate).toBe(true);
    expect((await read(strict.programId)).requireAccountTokenToCreate).toBe(true);
  });

  it('is set and cleared by UpdateProgram (require_account_token_to_create), and kept by other updates', async () => {
    const { programId } = await newProgram(h.client, accountId);
    const mask = ['require_account_token_to_create'];
    const on = await update(programId, { requireAccountTokenToCreate: true }, mask);
    expect(on.program!.requireAccountTokenToCreate).toBe(true);
    await update(programId, { name: 'Renamed' }, ['name']);
    expect((await read(programId)).requireAccountTokenToCreate).toBe(true);
    const off = await update(programId, {}, mask);
    expect(off.program!.requireAccountTokenToCreate).toBe(false);
    expect((await read(programId)).requireAccountTokenToCreate).toBe(false);
  });
});
