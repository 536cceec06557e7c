import { randomBytes } from 'node:crypto';
import { programsProgramV1, verificationV1 } from '@eligo/proto';
import {
  failure,
  flowCalls,
  importOrganization,
  jane,
  newProgram,
  OfferType,
  ProgramMode,
  startVerification,
  type Harness,
} from './support';

const { ReverifyOutcome } = verificationV1;
const hexId = () => randomBytes(12).toString('hex');

/**
 * What the reports service asks of verifications: the personal information of many at once (a stream),
 * the instant match run again for bulk re-verification, and who owns a verification.
 */
describe('reports support RPCs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVerification();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const { start, submit } = flowCalls(() => h);
  const STUDENT = 'collectStudentPersonalInfo';

  async function streamPersonalInfo(accountId: string, verificationIds: string[]) {
    const messages: verificationV1.StreamPersonalInfoResponse[] = [];
    const stream = h.client.serverStream(
      'streamPersonalInfo',
      { accountId, verificationIds },
      { deadlineMs: 20_000 },
    );
    for await (const message of stream) messages.push(message);
    return messages.sort((a, b) => a.verificationId.localeCompare(b.verificationId));
  }

  const updateProgram = (program: programsProgramV1.Program, fields: Partial<programsProgramV1.Program>) =>
    h.programs.unary('updateProgram', {
      programId: program.programId,
      accountId: program.accountId,
      program: programsProgramV1.Program.create(fields),
      updateMask: Object.keys(fields).map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)),
    });

  /** Another program of the same account. */
  const programOfAccount = async (accountId: string, overrides: Partial<programsProgramV1.Program> = {}) =>
    (
      await h.programs.unary('createProgram', {
        program: programsProgramV1.Program.create({
          accountId,
          name: 'Second offer',
          segment: 'student',
          offerType: OfferType.OFFER_TYPE_STATIC_CODE,
          rewardCode: 'SAVE10',
          ...overrides,
        }),
      })
    ).program!;

  const reverify = (program: programsProgramV1.Program, verificationId: string) =>
    h.client.unary('reverifyInstantMatch', {
      accountId: program.accountId,
      programId: program.programId,
      verificationId,
    });

  /** Everything a re-verification must leave as it was: the row, its steps and its events. */
  async function stateOf(verificationId: string) {
    const row = await h.db('verifications').where({ id: verificationId }).first();
    const count = async (sql: string) =>
      Number((await h.db.raw<{ rows: { n: string }[] }>(sql, [verificationId])).rows[0]!.n);
    return {
      row,
      steps: await count('select count(*) as n from verification_steps where verification_id = ?'),
      events: await count('select count(*) as n from outbox where key = ?'),
    };
  }

  describe('StreamPersonalInfo', () => {
    it("streams the account's verifications that have a person or metadata, decrypted", async () => {
      const program = await newProgram(h.programs, { segment: 'age' });
      const step = 'collectAgePersonalInfo';
      const person = jane({
        postalCode: '10001',
        country: 'US',
        phoneNumber: '+12025550143',
        metadata: { order: '42' },
      });
      const submitted = (await start(program.programId)).verificationId;
      expect((await submit(submitted, step, person)).currentStep).toBe('success');
      // Metadata without a person yet.
      const tagged = (await start(program.programId)).verificationId;
      await h.client.unary('putMetadata', {
        accountId: program.accountId,
        verificationId: tagged,
        metadata: { channel: 'app' },
      });
      const bare = (await start(program.programId)).verificationId;
      const other = await newProgram(h.programs, { segment: 'age' });
      const foreign = (await start(other.programId)).verificationId;
      expect((await submit(foreign, step, person)).currentStep).toBe('success');

      const messages = await streamPersonalInfo(program.accountId, [
        submitted,
        tagged,
        bare,
        foreign,
        submitted,
        hexId(),
        'not-an-id',
      ]);
      const empty = {
        firstName: '',
        lastName: '',
        email: '',
        phoneNumber: '',
        birthDate: '',
        postalCode: '',
      };
      const expected = [
        {
          verificationId: submitted,
          firstName: 'Jane',
          lastName: 'Doe',
          email: 'jane.doe@example.com',
          phoneNumber: '+12025550143',
          birthDate: '2000-01-31',
          postalCode: '10001',
          country: 'US',
          metadata: { order: '42' },
        },
        { verificationId: tagged, ...empty, country: '', metadata: { channel: 'app' } },
      ].sort((a, b) => a.verificationId.localeCompare(b.verificationId));
      expect(messages).toEqual(expected);
      // The other account sees its own verification only.
      expect(
        (await streamPersonalInfo(other.accountId, [submitted, foreign])).map((m) => m.verificationId),
      ).toEqual([foreign]);
    });

    it('takes at most 1000 ids per call', async () => {
      const program = await newProgram(h.programs);
      const ids = Array.from({ length: 1000 }, hexId);
      expect(await streamPersonalInfo(program.accountId, ids)).toEqual([]);
      const err = await failure(streamPersonalInfo(program.accountId, [...ids, hexId()]));
      expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
    });
  });

  describe('ReverifyInstantMatch', () => {
    it('answers ELIGIBLE for a test-mode success, INELIGIBLE once the organization is refused', async () => {
      const program = await newProgram(h.programs);
      const org = await importOrganization(h, program.programId, 'Reverify University');
      const { verificationId } = await start(program.programId);
      const person = jane({ organization: { id: org, name: '' }, metadata: { order: '7' } });
      expect((await submit(verificationId, STUDENT, person)).currentStep).toBe('success');
      const before = await stateOf(verificationId);

      expect(await reverify(program, verificationId)).toEqual({
        outcome: ReverifyOutcome.REVERIFY_OUTCOME_ELIGIBLE,
        errorIds: [],
        currentStep: 'success',
        organizationId: org,
      });
      // Asked twice, as a resumed job would: the same answer, and still nothing stored or emitted.
      expect((await reverify(program, verificationId)).outcome).toBe(
        ReverifyOutcome.REVERIFY_OUTCOME_ELIGIBLE,
      );
      expect(await stateOf(verificationId)).toEqual(before);

      await updateProgram(program, {
        organizationRules: { types: [], countries: [], includeIds: [], excludeIds: [org] },
      });
      expect(await reverify(program, verificationId)).toEqual({
        outcome: ReverifyOutcome.REVERIFY_OUTCOME_INELIGIBLE,
        errorIds: ['invalidOrganization'],
        currentStep: 'success',
        organizationId: 0,
      });
      expect(await stateOf(verificationId)).toEqual(before);
    });

    it('answers NEEDS_REVIEW when the match would ask for documents', async () => {
      const program = await newProgram(h.programs);
      const org = await importOrganization(h, program.programId, 'Review University');
      const { verificationId } = await start(program.programId);
      const person = jane({ firstName: 'REJECTED', organization: { id: org, name: '' } });
      expect((await submit(verificationId, STUDENT, person)).currentStep).toBe('docUpload');
      expect(await reverify(program, verificationId)).toEqual({
        outcome: ReverifyOutcome.REVERIFY_OUTCOME_NEEDS_REVIEW,
        errorIds: [],
        currentStep: 'docUpload',
        organizationId: org,
      });
    });

    it('decides by the program as it is now: a live age program refuses who test mode let through', async () => {
      const program = await newProgram(h.programs, { segment: 'age', minAge: 21 });
      const { verificationId } = await start(program.programId);
      const eighteen = `${new Date().getUTCFullYear() - 18}-01-01`;
      const person = jane({ birthDate: eighteen, postalCode: '10001', country: 'US' });
      expect((await submit(verificationId, 'collectAgePersonalInfo', person)).currentStep).toBe('success');
      await updateProgram(program, { mode: ProgramMode.PROGRAM_MODE_LIVE });
      const before = await stateOf(verificationId);

      expect(await reverify(program, verificationId)).toEqual({
        outcome: ReverifyOutcome.REVERIFY_OUTCOME_INELIGIBLE,
        errorIds: ['underagePerson'],
        currentStep: 'success',
        organizationId: 0,
      });
      // No reward claimed, no step, no event, the person limit not counted: the verification is untouched.
      expect(await stateOf(verificationId)).toEqual(before);
    });

    it('reads a military person with the form its status chose', async () => {
      const program = await newProgram(h.programs, { segment: 'military' });
      const army = await importOrganization(h, program.programId, 'Reverify Army', { type: 'MILITARY' });
      const { verificationId } = await start(program.programId);
      await h.client.unary('submitMilitaryStatus', { requestId: '', verificationId, status: 'ACTIVE_DUTY' });
      // The active form has no discharge date: read with the inactive form's rules it would be refused.
      const person = jane({ firstName: 'SSN', organization: { id: army, name: '' } });
      const step = (await submit(verificationId, 'collectActiveMilitaryPersonalInfo', person)).currentStep;
      expect(step).toBe('collectSocialSecurityNumber');
      expect(await reverify(program, verificationId)).toEqual({
        outcome: ReverifyOutcome.REVERIFY_OUTCOME_NEEDS_REVIEW,
        errorIds: [],
        currentStep: 'collectSocialSecurityNumber',
        organizationId: army,
      });
    });

    it('answers NO_PERSONAL_INFO for a verification that never received a person', async () => {
      const program = await newProgram(h.programs);
      const { verificationId } = await start(program.programId);
      expect(await reverify(program, verificationId)).toEqual({
        outcome: ReverifyOutcome.REVERIFY_OUTCOME_NO_PERSONAL_INFO,
        errorIds: [],
        currentStep: STUDENT,
        organizationId: 0,
      });
    });

    it("is NOT_FOUND for another account's or another program's verification, and unknown ids", async () => {
      const program = await newProgram(h.programs);
      const { verificationId } = await start(program.programId);
      const stranger = await newProgram(h.programs);
      const sameAccount = await programOfAccount(program.accountId);
      const attempts = [
        { ...program, accountId: stranger.accountId },
        { ...program, programId: sameAccount.programId },
      ];
      for (const asker of attempts) {
        const err = await failure(reverify(asker, verificationId));
        expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noVerification']]);
      }
      for (const id of [hexId(), 'not-an-id']) {
        const err = await failure(reverify(program, id));
        expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noVerification']]);
      }
    });
  });

  describe('LocateVerification', () => {
    const locate = (key: verificationV1.LocateVerificationRequest['key']) =>
      h.client.unary('locateVerification', { key });

    it('finds the owner by id', async () => {
      const program = await newProgram(h.programs);
      const { verificationId } = await start(program.programId);
      expect(await locate({ $case: 'verificationId', verificationId })).toEqual({
        verificationId,
        accountId: program.accountId,
        programId: program.programId,
        testMode: true,
      });
    });

    it("finds the account's most recent verification with a tracking id", async () => {
      const first = await newProgram(h.programs);
      const second = await programOfAccount(first.accountId, { mode: ProgramMode.PROGRAM_MODE_LIVE });
      const older = (await start(first.programId, 'loc-track')).verificationId;
      const newer = (await start(second.programId, 'loc-track')).verificationId;
      // Another account's verification with the same tracking id is not the account's.
      const stranger = await newProgram(h.programs);
      const strangers = (await start(stranger.programId, 'loc-track')).verificationId;
      const byTracking = (accountId: string, trackingId = 'loc-track') =>
        locate({ $case: 'tracking', tracking: { accountId, trackingId } });

      expect(await byTracking(first.accountId)).toEqual({
        verificationId: newer,
        accountId: first.accountId,
        programId: second.programId,
        testMode: false,
      });
      expect((await byTracking(stranger.accountId)).verificationId).toBe(strangers);
      // Newest by creation time, whatever the ids.
      await h
        .db('verifications')
        .where({ id: older })
        .update({ created_at: new Date(Date.now() + 60_000) });
      expect((await byTracking(first.accountId)).verificationId).toBe(older);
    });

    it('is NOT_FOUND when there is no such verification', async () => {
      const program = await newProgram(h.programs);
      await start(program.programId, 'known-track');
      for (const key of [
        { $case: 'verificationId', verificationId: hexId() },
        { $case: 'verificationId', verificationId: 'not-an-id' },
        { $case: 'tracking', tracking: { accountId: program.accountId, trackingId: 'unknown-track' } },
        { $case: 'tracking', tracking: { accountId: hexId(), trackingId: 'known-track' } },
        { $case: 'tracking', tracking: { accountId: program.accountId, trackingId: '' } },
      ] as const) {
        const err = await failure(locate(key));
        expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noVerification']]);
      }
    });
  });
});
