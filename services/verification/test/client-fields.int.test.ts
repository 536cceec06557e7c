import { exportJWK, generateKeyPair } from 'jose';
import { programsProgramV1, verificationV1 } from '@eligo/proto';
import {
  failure,
  flowCalls,
  importOrganization,
  jane,
  newProgram,
  startVerification,
  type Harness,
} from './support';
import { signSubjectToken } from './subject-tokens';

/**
 * The optional fields clients send besides the spec's (issue 17): metadata and locale when a verification
 * starts, and locale, externalUserId, phoneNumber and deviceFingerprintHash with the personal-info bodies
 * other than the student's. What each is stored as, and where it shows.
 */
describe('optional client fields', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVerification();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const { start, submit } = flowCalls(() => h);
  const SENIOR = 'collectSeniorPersonalInfo';
  const seniorProgram = (overrides: Partial<programsProgramV1.Program> = {}) =>
    newProgram(h.programs, { segment: 'senior', ...overrides });
  const row = (id: string) => h.db('verifications').where({ id }).first();
  const details = async (accountId: string, verificationId: string) =>
    (await h.client.unary('getVerificationDetails', { accountId, verificationId })).details!;
  const startRaw = (programId: string, metadata: Record<string, string>, locale = '') =>
    h.client.unary('startVerification', { programId, trackingId: '', requestId: '', metadata, locale });
  const themed = (locale: string) =>
    programsProgramV1.Theme.create({ intl: programsProgramV1.Intl.create({ locale }), customCss: '' });

  describe('on the start', () => {
    it('stores the metadata as the verification’s and the locale (canonical) as that of its responses', async () => {
      const program = await newProgram(h.programs);
      const started = await start(program.programId, 't-1', '', {
        metadata: { orderId: 'A-1', channel: 'app' },
        locale: 'FR-ca',
      });
      expect(started.locale).toBe('fr-CA');
      const id = started.verificationId;
      expect((await row(id)).locale).toBe('fr-CA');
      const { metadata } = await h.client.unary('getMetadata', {
        accountId: program.accountId,
        verificationId: id,
      });
      expect(metadata).toEqual({ orderId: 'A-1', channel: 'app' });
      // Encrypted at rest like PutMetadata's.
      expect((await row(id)).metadata.toString('latin1')).not.toContain('A-1');
      const read = await h.client.unary('getVerification', { verificationId: id });
      expect(read.verification!.locale).toBe('fr-CA');
      // The student form takes no locale: the verification keeps its own through the flow.
      const done = await submit(id, 'collectStudentPersonalInfo', jane({ organization: undefined }));
      expect([done.currentStep, done.locale]).toEqual(['collectStudentPersonalInfo', 'fr-CA']);
    });

    it('answers the program’s locale without one, en-US when the program has none', async () => {
      const plain = await newProgram(h.programs);
      expect((await start(plain.programId)).locale).toBe('en-US');
      const german = await newProgram(h.programs, { theme: themed('de-DE') });
      expect((await start(german.programId)).locale).toBe('de-DE');
      const own = await start(german.programId, '', '', { locale: 'it' });
      expect(own.locale).toBe('it');
      expect((await row(own.verificationId)).locale).toBe('it');
    });

    it.each<[string, Record<string, string>, string, string[], RegExp]>([
      ['a locale that is no BCP 47 tag', {}, 'en_US', ['invalidRequest'], /^locale: must be a BCP 47/],
      ['a locale over 35 characters', {}, `en-${'abcdefgh-'.repeat(4)}`, ['invalidRequest'], /^locale/],
      [
        '51 metadata keys',
        Object.fromEntries([...Array(51).keys()].map((i) => [`k${i}`, 'v'])),
        '',
        ['maxMetadataValuesExceeded'],
        /^metadata/,
      ],
      ['a long metadata value', { k: 'v'.repeat(1025) }, '', ['maxMetadataLengthExceeded'], /^metadata/],
      ['an empty metadata key', { '': 'v' }, '', ['invalidRequest'], /a key must not be empty/],
      [
        'a NUL in a metadata key',
        { 'a\u0000b': 'v' },
        '',
        ['invalidRequest'],
        /the key "a\\u0000b" must not contain control characters/,
      ],
      [
        'a line break in a metadata value',
        { k: 'a\nb' },
        '',
        ['invalidRequest'],
        /metadata\["k"\] must not contain control characters/,
      ],
    ])(
      'refuses %s with INVALID_ARGUMENT, starting nothing',
      async (_, metadata, locale, errorIds, message) => {
        const program = await newProgram(h.programs);
        const err = await failure(startRaw(program.programId, metadata, locale));
        expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', errorIds]);
        expect(err.message).toMatch(message);
        expect(await h.db('verifications').where({ program_id: program.programId }).count('* as n')).toEqual([
          { n: '0' },
        ]);
      },
    );
  });

  describe('with a personal-info body', () => {
    it('stores locale, externalUserId and phoneNumber of a type whose spec row has none of them', async () => {
      const program = await seniorProgram({ theme: themed('de-DE') });
      const started = await start(program.programId);
      expect(started.locale).toBe('de-DE');
      const id = started.verificationId;
      const done = await submit(
        id,
        SENIOR,
        jane({
          birthDate: '1950-01-31',
          locale: 'es-mx',
          externalUserId: 'crm-user-4711',
          phoneNumber: '+1 415 555 0100',
          metadata: { order: '9' },
        }),
      );
      expect([done.currentStep, done.locale]).toEqual(['success', 'es-MX']);
      expect((await h.client.unary('getVerification', { verificationId: id })).verification!.locale).toBe(
        'es-MX',
      );
      const stored = await row(id);
      expect(stored.locale).toBe('es-MX');
      // The identifier and the phone number are personal data: encrypted with the rest of the person.
      const raw = stored.person.toString('latin1');
      expect(raw).not.toContain('crm-user-4711');
      expect(raw).not.toContain('+1 415 555 0100');

      const shown = await details(program.accountId, id);
      expect(shown.externalUserId).toBe('crm-user-4711');
      expect(shown.personInfo).toMatchObject({ firstName: 'Jane', metadata: { order: '9' } });
      expect(shown.lastResponse!.locale).toBe('es-MX');

      // The reports' personal information carries the phone number of any type that took one.
      const stream = h.client.serverStream(
        'streamPersonalInfo',
        { accountId: program.accountId, verificationIds: [id] },
        { deadlineMs: 20_000 },
      );
      const messages: verificationV1.StreamPersonalInfoResponse[] = [];
      for await (const message of stream) messages.push(message);
      expect(messages).toEqual([
        expect.objectContaining({ verificationId: id, phoneNumber: '+1 415 555 0100', firstName: 'Jane' }),
      ]);
      // Staff see the same details.
      const admin = await h.client.unary('getVerificationAdmin', { verificationId: id });
      expect(admin.verification!.details!.externalUserId).toBe('crm-user-4711');
    });

    it('ignores the fields on a form that does not take them (the student form)', async () => {
      const program = await newProgram(h.programs, { segment: 'student' });
      const organization = {
        id: await importOrganization(h, program.programId, 'Ignoring University'),
        name: '',
      };
      const { verificationId } = await start(program.programId);
      const done = await submit(
        verificationId,
        'collectStudentPersonalInfo',
        jane({ organization, locale: 'es-MX', externalUserId: 'crm-user-1' }),
      );
      expect([done.currentStep, done.locale]).toEqual(['success', 'en-US']);
      expect((await row(verificationId)).locale).toBeNull();
      expect((await details(program.accountId, verificationId)).externalUserId).toBe('');
    });

    it('shows no externalUserId when none was given', async () => {
      const program = await seniorProgram();
      const { verificationId } = await start(program.programId);
      expect((await details(program.accountId, verificationId)).externalUserId).toBe('');
      await submit(verificationId, SENIOR, jane({ birthDate: '1950-01-31' }));
      expect((await details(program.accountId, verificationId)).externalUserId).toBe('');
    });

    it('replaces the start’s locale even on a form with mistakes, and keeps it when the body gives none', async () => {
      const program = await seniorProgram();
      const { verificationId } = await start(program.programId, '', '', { locale: 'fr' });
      const wrong = await submit(verificationId, SENIOR, jane({ email: 'nope', locale: 'pt-BR' }));
      expect([wrong.currentStep, wrong.errorIds, wrong.locale]).toEqual([SENIOR, ['invalidEmail'], 'pt-BR']);
      const done = await submit(verificationId, SENIOR, jane({ birthDate: '1950-01-31' }));
      expect([done.currentStep, done.locale]).toEqual(['success', 'pt-BR']);
    });

    it.each<[string, object, RegExp]>([
      ['an invalid locale', { locale: 'en_US' }, /^locale: must be a BCP 47 language tag/],
      ['a control character in externalUserId', { externalUserId: 'a\u0007' }, /^externalUserId: must be/],
      ['a phone number that is none', { phoneNumber: 'call me' }, /^$/],
    ])('answers %s as a recoverable error of the form, keeping the locale', async (_, extra, message) => {
      const program = await seniorProgram();
      const { verificationId } = await start(program.programId, '', '', { locale: 'fr' });
      const reply = await submit(verificationId, SENIOR, jane({ birthDate: '1950-01-31', ...extra }));
      const errorId = 'phoneNumber' in extra ? 'invalidPhoneNumber' : 'invalidRequest';
      expect([reply.currentStep, reply.errorIds, reply.locale]).toEqual([SENIOR, [errorId], 'fr']);
      expect(reply.systemErrorMessage).toMatch(message);
      expect((await row(verificationId)).person).toBeNull();
    });
  });

  describe('in a signed subject token', () => {
    const keyed = async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256');
      const program = await newProgram(h.programs, {
        segment: 'driverLicense',
        subjectTokenKey: JSON.stringify(await exportJWK(publicKey)),
      });
      const sign = (payload: object) =>
        signSubjectToken({ key: privateKey, alg: 'ES256', programId: program.programId }, payload);
      return { program, sign };
    };
    const claims = {
      firstName: 'Jane',
      lastName: 'Doe',
      state: 'CA',
      driverLicenseNumber: 'D1234567',
      email: 'j@example.com',
    };
    const submitToken = (verificationId: string, token: string) =>
      h.client.unary('submitPersonalInfo', {
        requestId: '',
        verificationId,
        programId: '',
        trackingId: '',
        step: 'collectDriverLicensePersonalInfo',
        input: { $case: 'subjectToken', subjectToken: token },
      });

    it('takes the optional fields, checks deviceFingerprintHash and drops it', async () => {
      const { program, sign } = await keyed();
      const { verificationId } = await start(program.programId);
      const token = await sign({
        ...claims,
        metadata: { source: 'wallet' },
        phoneNumber: '+14155550100',
        locale: 'en-GB',
        externalUserId: 'wallet-7',
        deviceFingerprintHash: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=',
      });
      const { verification } = await submitToken(verificationId, token);
      expect([verification!.currentStep, verification!.locale]).toEqual(['success', 'en-GB']);
      const shown = await details(program.accountId, verificationId);
      expect(shown.externalUserId).toBe('wallet-7');
      expect(shown.personInfo!.metadata).toEqual({ source: 'wallet' });
      const person = await h.client.unary('getVerificationAdmin', { verificationId });
      expect(JSON.stringify(person)).not.toContain('n4bQgYhMfWWaL');
    });

    it('refuses a malformed deviceFingerprintHash with invalidRequest', async () => {
      const { program, sign } = await keyed();
      const { verificationId } = await start(program.programId);
      const err = await failure(
        submitToken(verificationId, await sign({ ...claims, deviceFingerprintHash: 'not a hash' })),
      );
      expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
      expect(err.message).toMatch(/^deviceFingerprintHash: must be 1 to 128 characters/);
    });

    it('refuses the metadata key __proto__ (which a plain object would drop) as a recoverable error', async () => {
      const { program, sign } = await keyed();
      const { verificationId } = await start(program.programId);
      const payload = JSON.parse(`{"metadata": {"__proto__": "x", "a": "b"}}`) as object;
      const { verification } = await submitToken(verificationId, await sign({ ...claims, ...payload }));
      expect([verification!.currentStep, verification!.errorIds]).toEqual([
        'collectDriverLicensePersonalInfo',
        ['invalidRequest'],
      ]);
      expect(verification!.systemErrorMessage).toBe('metadata: the key "__proto__" is reserved');
    });
  });

  it('PutMetadata refuses control characters and empty keys with invalidRequest, naming the key', async () => {
    const program = await newProgram(h.programs);
    const { verificationId } = await start(program.programId);
    const put = (metadata: Record<string, string>) =>
      h.client.unary('putMetadata', { accountId: program.accountId, verificationId, metadata });
    for (const [metadata, message] of [
      [
        { 'a\u0000': 'v' },
        'metadata: invalidRequest (metadata: the key "a\\u0000" must not contain control characters)',
      ],
      [{ k: 'tab\there' }, 'metadata: invalidRequest (metadata["k"] must not contain control characters)'],
      [{ '': 'v' }, 'metadata: invalidRequest (metadata: a key must not be empty)'],
    ] as const) {
      const err = await failure(put(metadata));
      expect([err.codeName, err.errorIds, err.message]).toEqual([
        'INVALID_ARGUMENT',
        ['invalidRequest'],
        message,
      ]);
    }
    expect(await put({ ok: 'Zürich 東京' })).toEqual({ metadata: { ok: 'Zürich 東京' } });
  });
});
