import { failure, importOrganization, jane, newProgram, startVerification, type Harness } from './support';

/** The token endpoints: details, metadata, history, refire — each for the program's own account only. */
describe('verification reading and management', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVerification();
  });
  afterAll(async () => {
    await h?.stop();
  });

  async function succeeded() {
    const program = await newProgram(h.programs);
    const org = await importOrganization(h, program.programId, 'Details University');
    const { verification } = await h.client.unary('submitPersonalInfo', {
      requestId: '',
      verificationId: '',
      programId: program.programId,
      trackingId: 'track-d',
      step: 'collectStudentPersonalInfo',
      input: {
        $case: 'subject',
        subject: jane({ organization: { id: org, name: '' }, metadata: { order: '42' } }),
      },
    });
    return { program, verificationId: verification!.verificationId, org };
  }

  it('shows the details, decrypted, to the program account only', async () => {
    const { program, verificationId, org } = await succeeded();
    const { details } = await h.client.unary('getVerificationDetails', {
      accountId: program.accountId,
      verificationId,
    });
    expect(details).toMatchObject({
      programId: program.programId,
      trackingId: 'track-d',
      verificationMethod: 'INSTANT',
      personInfo: {
        firstName: 'Jane',
        lastName: 'Doe',
        email: 'jane.doe@example.com',
        birthDate: '2000-01-31',
        organization: { id: org, name: 'Details University' },
        metadata: { order: '42' },
      },
      lastResponse: { currentStep: 'success', rewardCode: 'SAVE10' },
    });
    expect(details!.personId).toMatch(/^[0-9a-f]{24}$/);
    expect(details!.confirmedSegments).toEqual([
      expect.objectContaining({
        segment: 'student',
        active: true,
        organization: { id: org, name: 'Details University' },
      }),
    ]);
    const other = await newProgram(h.programs);
    const err = await failure(
      h.client.unary('getVerificationDetails', { accountId: other.accountId, verificationId }),
    );
    expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noVerification']]);
  });

  it('reads and replaces metadata of an ongoing verification, within the limits', async () => {
    const program = await newProgram(h.programs);
    const { verification } = await h.client.unary('startVerification', {
      requestId: '',
      programId: program.programId,
      trackingId: '',
      metadata: {},
      locale: '',
    });
    const verificationId = verification!.verificationId;
    const accountId = program.accountId;
    await h.client.unary('putMetadata', { accountId, verificationId, metadata: { a: '1', b: 'two' } });
    expect((await h.client.unary('getMetadata', { accountId, verificationId })).metadata).toEqual({
      a: '1',
      b: 'two',
    });
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    const tooMany = await failure(
      h.client.unary('putMetadata', { accountId, verificationId, metadata: many }),
    );
    expect([tooMany.codeName, tooMany.errorIds]).toEqual(['INVALID_ARGUMENT', ['maxMetadataValuesExceeded']]);
    const tooLong = await failure(
      h.client.unary('putMetadata', { accountId, verificationId, metadata: { a: 'x'.repeat(5000) } }),
    );
    expect(tooLong.errorIds).toEqual(['maxMetadataLengthExceeded']);
    const other = await newProgram(h.programs);
    const foreign = await failure(
      h.client.unary('getMetadata', { accountId: other.accountId, verificationId }),
    );
    expect(foreign.codeName).toBe('NOT_FOUND');
  });

  it('lists the history of a tracking id for the program account, and hides it from others', async () => {
    const { program } = await succeeded();
    const { verifications } = await h.client.unary('listVerificationHistory', {
      accountId: program.accountId,
      programId: program.programId,
      trackingId: 'track-d',
    });
    expect(verifications).toHaveLength(1);
    const other = await newProgram(h.programs);
    const err = await failure(
      h.client.unary('listVerificationHistory', {
        accountId: other.accountId,
        programId: program.programId,
        trackingId: 'track-d',
      }),
    );
    expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noProgram']]);
  });

  it('records a refire request for the program account only', async () => {
    const { program, verificationId } = await succeeded();
    await h.client.unary('refireWebhooks', { accountId: program.accountId, verificationId });
    const { rows } = await h.db.raw<{ rows: { count: string }[] }>(
      `select count(*) from verification.outbox where key = ? and event_type like '%WebhooksRefireRequested'`,
      [verificationId],
    );
    expect(Number(rows[0]!.count)).toBe(1);
    const other = await newProgram(h.programs);
    expect(
      (await failure(h.client.unary('refireWebhooks', { accountId: other.accountId, verificationId })))
        .codeName,
    ).toBe('NOT_FOUND');
  });
});
