import { status } from '@grpc/grpc-js';
import { programsProgramV1 } from '@eligo/proto';
import { failure, newAccount, newProgram, outboxEvents, startPrograms, type Harness } from './support';
import { DEFAULT_ERROR_MESSAGES, DEFAULT_FORM_MESSAGES, ERROR_IDS } from '@eligo/vocabulary';

describe('GetTheme', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    h = await startPrograms();
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('answers the defaults for a program without a theme: en-US, every label of the form, every errorId', async () => {
    const program = await newProgram(h.client, accountId);
    const { theme } = await h.client.unary('getTheme', { programId: program.programId, accountId });
    expect(theme!.intl!.locale).toBe('en-US');
    expect(theme!.intl!.messages).toEqual(DEFAULT_FORM_MESSAGES);
    expect(Object.keys(theme!.intl!.errorId).sort()).toEqual([...ERROR_IDS].sort());
    expect(theme!.intl!.errorId.noRemainingRewardCodes).toBe(DEFAULT_ERROR_MESSAGES.noRemainingRewardCodes);
    expect(theme!.customCss).toBe('');
  });

  it("overlays the program's locale, messages, errorId texts and CSS on the defaults", async () => {
    const program = await newProgram(h.client, accountId, {
      theme: {
        intl: {
          locale: 'es-MX',
          messages: { 'step.title': 'Verifica' },
          errorId: { invalidEmail: 'Correo inválido' },
          locales: {},
        },
        customCss: '.form { color: #333 }',
      },
    });
    const { theme } = await h.client.unary('getTheme', { programId: program.programId, accountId: '' });
    expect(theme!.intl!.locale).toBe('es-MX');
    expect(theme!.intl!.messages).toEqual({ ...DEFAULT_FORM_MESSAGES, 'step.title': 'Verifica' });
    expect(theme!.intl!.errorId.invalidEmail).toBe('Correo inválido');
    expect(theme!.intl!.errorId.noProgram).toBe(DEFAULT_ERROR_MESSAGES.noProgram);
    expect(Object.keys(theme!.intl!.errorId)).toHaveLength(ERROR_IDS.length);
    expect(theme!.customCss).toBe('.form { color: #333 }');
  });

  it('keeps translations under their canonical tags, without defaults merged into them', async () => {
    const program = await newProgram(h.client, accountId, {
      theme: {
        intl: {
          locale: 'en-US',
          messages: {},
          errorId: {},
          locales: {
            'fr-ca': { messages: { 'page.title': 'Vérifiez' }, errorId: { invalidEmail: 'Courriel' } },
          },
        },
        customCss: '',
      },
    });
    const { theme } = await h.client.unary('getTheme', { programId: program.programId, accountId });
    expect(theme!.intl!.locales).toEqual({
      'fr-CA': { messages: { 'page.title': 'Vérifiez' }, errorId: { invalidEmail: 'Courriel' } },
    });
    const { program: read } = await h.client.unary('getProgram', { programId: program.programId, accountId });
    expect(Object.keys(read!.theme!.intl!.locales)).toEqual(['fr-CA']);
  });

  it('reads a theme stored before translations existed as one without any', async () => {
    const program = await newProgram(h.client, accountId, {
      theme: { intl: { locale: 'de', messages: { a: 'b' }, errorId: {}, locales: {} }, customCss: '' },
    });
    await h
      .db('programs')
      .where({ id: program.programId })
      .update({ theme: h.db.raw("theme - 'locales'") });
    const { program: read } = await h.client.unary('getProgram', { programId: program.programId, accountId });
    expect(read!.theme!.intl).toEqual({ locale: 'de', messages: { a: 'b' }, errorId: {}, locales: {} });
    // Another setting's change validates the whole program again, the stored theme included.
    const { program: updated } = await h.client.unary('updateProgram', {
      programId: program.programId,
      accountId,
      program: programsProgramV1.Program.create({ name: 'Renamed' }),
      updateMask: ['name'],
    });
    expect([updated!.name, updated!.theme!.intl!.locale]).toEqual(['Renamed', 'de']);
  });

  it.each([
    [
      'an unknown errorId',
      { locale: '', messages: {}, errorId: { notAnId: 'x' }, locales: {} },
      '',
      'theme.intl.errorId: "notAnId" is not a known errorId',
    ],
    [
      'a bad locale',
      { locale: 'en_US!', messages: {}, errorId: {}, locales: {} },
      '',
      'theme.intl.locale: "en_US!" is not a BCP 47 language tag',
    ],
    [
      'markup in the CSS',
      { locale: '', messages: {}, errorId: {}, locales: {} },
      '</style><script>',
      'theme.customCss: must not contain "<" (write \\3c in strings)',
    ],
    [
      'a bad message key',
      { locale: '', messages: { 'a b': 'x' }, errorId: {}, locales: {} },
      '',
      'theme.intl.messages: key "a b" must match ^[A-Za-z0-9_.-]{1,100}$',
    ],
  ])('refuses a theme with %s', async (_case, intl, customCss, message) => {
    const err = await failure(newProgram(h.client, accountId, { theme: { intl, customCss } }));
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.errorIds).toEqual(['invalidRequest']);
    expect(err.message).toBe(message);
  });

  it('answers NOT_FOUND noProgram for a program of another account', async () => {
    const program = await newProgram(h.client, accountId);
    const other = await newAccount(h.client, 'Other');
    const err = await failure(h.client.unary('getTheme', { programId: program.programId, accountId: other }));
    expect(err.code).toBe(status.NOT_FOUND);
    expect(err.errorIds).toEqual(['noProgram']);
  });
});

describe('CreateVerificationLimit and DeleteVerificationLimit', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    h = await startPrograms();
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('sets a limit once (ALREADY_EXISTS after), deletes it, and a second delete is a no-op', async () => {
    const { programId } = await newProgram(h.client, accountId);
    const created = await h.client.unary('createVerificationLimit', {
      programId,
      accountId,
      limit: { quantity: 5, days: 365 },
    });
    expect(created.program!.verificationLimit).toEqual({ quantity: 5, days: 365 });

    const again = await failure(
      h.client.unary('createVerificationLimit', { programId, accountId, limit: { quantity: 1, days: 1 } }),
    );
    expect(again.code).toBe(status.ALREADY_EXISTS);
    expect(again.errorIds).toEqual(['verificationLimitAlreadyExists']);
    expect(again.message).toBe('Program already has a verification limit');

    const deleted = await h.client.unary('deleteVerificationLimit', { programId, accountId });
    expect(deleted.program!.verificationLimit).toBeUndefined();
    const noop = await h.client.unary('deleteVerificationLimit', { programId, accountId });
    expect(noop.program).toEqual(deleted.program);

    const types = (await outboxEvents(h.db, programId)).map((e) => e.type.split('.').pop());
    expect(types).toEqual(['ProgramCreated', 'ProgramUpdated', 'ProgramUpdated']);
  });

  it.each([
    ['no limit', undefined, 'limit: is required'],
    ['a zero quantity', { quantity: 0, days: 10 }, 'verificationLimit.quantity: must be from 1 to 1000'],
    ['too many days', { quantity: 1, days: 3651 }, 'verificationLimit.days: must be from 1 to 3650'],
  ])('refuses %s with INVALID_ARGUMENT invalidRequest', async (_case, limit, message) => {
    const { programId } = await newProgram(h.client, accountId);
    const err = await failure(h.client.unary('createVerificationLimit', { programId, accountId, limit }));
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.errorIds).toEqual(['invalidRequest']);
    expect(err.message).toBe(message);
  });

  it('answers NOT_FOUND noProgram for another account and for unknown programs', async () => {
    const { programId } = await newProgram(h.client, accountId);
    const other = await newAccount(h.client, 'Other');
    const limit = { quantity: 1, days: 1 };
    for (const call of [
      () => h.client.unary('createVerificationLimit', { programId, accountId: other, limit }),
      () => h.client.unary('deleteVerificationLimit', { programId, accountId: other }),
      () =>
        h.client.unary('createVerificationLimit', {
          programId: '0123456789abcdef01234567',
          accountId,
          limit,
        }),
      () => h.client.unary('deleteVerificationLimit', { programId: 'x', accountId }),
    ]) {
      const err = await failure(call());
      expect(err.code).toBe(status.NOT_FOUND);
      expect(err.errorIds).toEqual(['noProgram']);
    }
  });
});
