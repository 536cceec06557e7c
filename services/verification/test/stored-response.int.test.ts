import { flowCalls, jane, newProgram, startVerification, type Harness } from './support';

/**
 * The row's last_response is the JSON of the service's VerificationAnswer (domain/answer.ts), which must stay
 * the shape rows were written in when it was the protobuf message's: no migration converts old rows. These
 * tests pin what is written and that a row written in that shape reads back unchanged.
 */
describe('stored last_response', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVerification();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const calls = flowCalls(() => h);
  const STEP = 'collectAgePersonalInfo';
  const adult = jane({ birthDate: '1980-01-01', postalCode: '10001', country: 'US' });
  const stored = async (id: string): Promise<unknown> =>
    (await h.db('verifications').where({ id }).first('last_response')).last_response;
  const ageProgram = () =>
    newProgram(h.programs, { segment: 'age', minAge: 21, redirectUrl: 'https://example.com/thanks' });

  it('writes the fields and names of the protobuf VerificationResponse, unset optional fields left out', async () => {
    const program = await ageProgram();
    const { verificationId } = await calls.start(program.programId, 'track-1');
    expect(await stored(verificationId)).toStrictEqual({
      verificationId,
      currentStep: STEP,
      errorIds: [],
      systemErrorMessage: '',
      segment: 'age',
      locale: 'en-US',
      availableStatuses: [],
      rejectionReasons: [],
      maxReviewTime: '',
      estimatedReviewTime: '',
      instantMatchAttempts: 0,
      country: '',
      docUploadToken: '',
    });
    await calls.submit(verificationId, STEP, adult);
    expect(await stored(verificationId)).toStrictEqual({
      verificationId,
      currentStep: 'success',
      errorIds: [],
      systemErrorMessage: '',
      segment: 'age',
      rewardCode: 'SAVE10',
      redirectUrl: 'https://example.com/thanks',
      locale: 'en-US',
      availableStatuses: [],
      rejectionReasons: [],
      maxReviewTime: '',
      estimatedReviewTime: '',
      instantMatchAttempts: 1,
      country: 'US',
      docUploadToken: '',
    });
  });

  it('answers a row written in the old format as it is stored', async () => {
    const program = await ageProgram();
    const { verificationId } = await calls.start(program.programId, 'track-old');
    await calls.submit(verificationId, STEP, adult);
    // As the code before the service's own answer type wrote it: JSON.stringify of the ts-proto message.
    // Its values differ from what the service would build now, so that a rebuilt answer would show.
    const old =
      `{"verificationId":"${verificationId}","currentStep":"success","errorIds":[],"systemErrorMessage":"",` +
      `"segment":"age","subSegment":"over21","rewardCode":"OLD-CODE","consolationRewardCode":"SORRY",` +
      `"redirectUrl":"https://example.com/old","locale":"de-DE","availableStatuses":["A"],` +
      `"rejectionReasons":["R"],"maxReviewTime":"2_MIN","estimatedReviewTime":"A_FEW_MINUTES",` +
      `"instantMatchAttempts":2,"country":"DE","docUploadToken":"tok"}`;
    await h.db('verifications').where({ id: verificationId }).update({ last_response: old });
    // A field the old format never had reads as its protobuf default.
    const expected = { ...(JSON.parse(old) as Record<string, unknown>), canResendEmailLoop: false };

    const { verification } = await h.client.unary('getVerification', { verificationId });
    expect(verification).toStrictEqual(expected);
    const { details } = await h.client.unary('getVerificationDetails', {
      accountId: program.accountId,
      verificationId,
    });
    expect(details!.lastResponse).toStrictEqual(expected);
    const { verifications } = await h.client.unary('listVerificationHistory', {
      accountId: program.accountId,
      programId: program.programId,
      trackingId: 'track-old',
    });
    expect(verifications).toStrictEqual([expected]);
    const admin = await h.client.unary('getVerificationAdmin', { verificationId });
    expect(admin.verification!.details!.lastResponse).toStrictEqual(expected);
  });
});
