import { verificationVerificationV1 } from '@eligo/proto';
import { detailsToJson, stepErrorToJson, verificationToJson } from './verification';

const { VerificationResponse, VerificationDetails } = verificationVerificationV1;
const base = 'https://eligo.example.com';
const id = '0123456789abcdef01234567';
const vr = (fields: Partial<verificationVerificationV1.VerificationResponse>) =>
  VerificationResponse.fromPartial({ verificationId: id, segment: 'student', locale: 'en-US', ...fields });

describe('VerificationResponse -> VR JSON', () => {
  it('gives a collect step its submissionUrl under the public base, and null for an unset subSegment', () => {
    expect(verificationToJson(vr({ currentStep: 'collectStudentPersonalInfo' }), base)).toEqual({
      verificationId: id,
      currentStep: 'collectStudentPersonalInfo',
      errorIds: [],
      segment: 'student',
      subSegment: null,
      locale: 'en-US',
      submissionUrl: `${base}/rest/v2/verification/${id}/step/collectStudentPersonalInfo`,
      instantMatchAttempts: 0,
    });
  });

  it.each([
    'collectMilitaryStatus',
    'collectSocialSecurityNumber',
    'collectPersonalInfo',
    'collectMarketplaceToken',
    'sso',
    'docUpload',
  ])('gives %s a submissionUrl', (step) => {
    expect(verificationToJson(vr({ currentStep: step }), base).submissionUrl).toBe(
      `${base}/rest/v2/verification/${id}/step/${step}`,
    );
  });

  it('ends a docUpload submissionUrl with the attempt token when the service gave one', () => {
    const json = verificationToJson(vr({ currentStep: 'docUpload', docUploadToken: 'att-3_Xy' }), base);
    expect(json.submissionUrl).toBe(`${base}/rest/v2/verification/${id}/step/docUpload/att-3_Xy`);
    expect(json).not.toHaveProperty('docUploadToken');
  });

  it('ignores a docUpload token on any other step', () => {
    const json = verificationToJson(vr({ currentStep: 'pending', docUploadToken: 'att-3' }), base);
    expect(json).not.toHaveProperty('submissionUrl');
    const collect = verificationToJson(
      vr({ currentStep: 'collectStudentPersonalInfo', docUploadToken: 'att-3' }),
      base,
    );
    expect(collect.submissionUrl).toBe(`${base}/rest/v2/verification/${id}/step/collectStudentPersonalInfo`);
  });

  it('keeps the submissionUrl and the errorIds of a recoverable error', () => {
    const json = verificationToJson(
      vr({ currentStep: 'collectStudentPersonalInfo', errorIds: ['invalidEmail', 'invalidBirthDate'] }),
      base,
    );
    expect(json).toMatchObject({
      errorIds: ['invalidEmail', 'invalidBirthDate'],
      submissionUrl: expect.stringMatching(/step\/collectStudentPersonalInfo$/),
    });
    expect(json).not.toHaveProperty('systemErrorMessage');
  });

  it('gives pending a statusUrl and no submissionUrl, with the review times', () => {
    const json = verificationToJson(
      vr({ currentStep: 'pending', maxReviewTime: '20_MIN', estimatedReviewTime: 'A_FEW_MINUTES' }),
      base,
    );
    expect(json).toMatchObject({
      statusUrl: `${base}/rest/v2/verification/${id}`,
      maxReviewTime: '20_MIN',
      estimatedReviewTime: 'A_FEW_MINUTES',
    });
    expect(json).not.toHaveProperty('submissionUrl');
  });

  it('gives success its rewardCode twice and a redirectUrl, null when the program has none', () => {
    const json = verificationToJson(
      vr({
        currentStep: 'success',
        subSegment: 'activeDuty',
        rewardCode: 'TEST-CODE',
        instantMatchAttempts: 1,
      }),
      base,
    );
    expect(json).toEqual({
      verificationId: id,
      currentStep: 'success',
      errorIds: [],
      segment: 'student',
      subSegment: 'activeDuty',
      locale: 'en-US',
      rewardCode: 'TEST-CODE',
      rewardData: { rewardCode: 'TEST-CODE' },
      redirectUrl: null,
      instantMatchAttempts: 1,
    });
    expect(
      verificationToJson(vr({ currentStep: 'success', redirectUrl: 'https://shop.example.com/ok' }), base)
        .redirectUrl,
    ).toBe('https://shop.example.com/ok');
  });

  it('gives error its message, and shows the optional fields only when set', () => {
    const json = verificationToJson(
      vr({
        currentStep: 'error',
        errorIds: ['expiredVerification'],
        systemErrorMessage: 'Verification expired',
        consolationRewardCode: 'SORRY10',
        country: 'US',
      }),
      base,
    );
    expect(json).toEqual({
      verificationId: id,
      currentStep: 'error',
      errorIds: ['expiredVerification'],
      segment: 'student',
      subSegment: null,
      locale: 'en-US',
      systemErrorMessage: 'Verification expired',
      consolationRewardCode: 'SORRY10',
      country: 'US',
      instantMatchAttempts: 0,
    });
  });

  it('lists availableStatuses and rejectionReasons only when there are some', () => {
    expect(
      verificationToJson(
        vr({ currentStep: 'collectMilitaryStatus', availableStatuses: ['ACTIVE_DUTY', 'VETERAN'] }),
        base,
      ).availableStatuses,
    ).toEqual(['ACTIVE_DUTY', 'VETERAN']);
    const docUpload = verificationToJson(
      vr({ currentStep: 'docUpload', rejectionReasons: ['DOCUMENT_EXPIRED'] }),
      base,
    );
    expect(docUpload.rejectionReasons).toEqual(['DOCUMENT_EXPIRED']);
    expect(docUpload).not.toHaveProperty('availableStatuses');
  });
});

describe('VerificationDetails -> details JSON', () => {
  const details = VerificationDetails.fromPartial({
    programId: 'ab'.repeat(12),
    trackingId: 'order-1',
    personId: 'p-1',
    created: 1_700_000_000_000,
    updated: 1_700_000_100_000,
    lastResponse: vr({ currentStep: 'success', rewardCode: 'CODE' }),
    docUploadRejectionCount: 1,
    docUploadRejectionReasons: ['DOCUMENT_UNREADABLE'],
    verificationMethod: 'MANUAL',
  });

  it('has the spec fields, the last response as a VR, and null for what is unset', () => {
    expect(detailsToJson(details, base)).toEqual({
      programId: 'ab'.repeat(12),
      trackingId: 'order-1',
      personId: 'p-1',
      created: 1_700_000_000_000,
      updated: 1_700_000_100_000,
      lastResponse: expect.objectContaining({ currentStep: 'success', rewardCode: 'CODE' }),
      personInfo: null,
      docUploadRejectionCount: 1,
      docUploadRejectionReasons: ['DOCUMENT_UNREADABLE'],
      verificationMethod: 'MANUAL',
      confirmedSegments: [],
      externalUserId: null,
    });
    expect(detailsToJson({ ...details, verificationMethod: '' }, base).verificationMethod).toBeNull();
  });

  it("shows the client's externalUserId of the person", () => {
    expect(detailsToJson({ ...details, externalUserId: 'crm-user-7' }, base).externalUserId).toBe(
      'crm-user-7',
    );
  });

  it('shows the person, metadata null when empty, and the confirmed segments', () => {
    const json = detailsToJson(
      {
        ...details,
        personInfo: {
          firstName: 'Jane',
          lastName: 'Doe',
          email: 'jane@example.com',
          birthDate: '2000-01-31',
          metadata: {},
          organization: { id: 42, name: 'Stanford University' },
        },
        confirmedSegments: [
          {
            segment: 'student',
            subSegment: undefined,
            organization: { id: 42, name: 'Stanford University' },
            active: true,
            startDate: '2024-09-01',
            endDate: '',
          },
        ],
      },
      base,
    );
    expect(json.personInfo).toEqual({
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@example.com',
      birthDate: '2000-01-31',
      metadata: null,
      organization: { id: 42, name: 'Stanford University' },
    });
    expect(json.confirmedSegments).toEqual([
      {
        segment: 'student',
        subSegment: null,
        organization: { id: 42, name: 'Stanford University' },
        active: true,
        startDate: '2024-09-01',
        endDate: null,
      },
    ]);
    expect(
      detailsToJson(
        {
          ...details,
          personInfo: { ...json.personInfo!, metadata: { plan: 'pro' }, organization: undefined },
        },
        base,
      ).personInfo,
    ).toMatchObject({ metadata: { plan: 'pro' }, organization: null });
  });
});

describe('the step error VR', () => {
  it('names the verification when the path has one', () => {
    expect(stepErrorToJson(id, ['invalidRequest'], 'Unexpected property')).toEqual({
      verificationId: id,
      currentStep: 'error',
      errorIds: ['invalidRequest'],
      systemErrorMessage: 'Unexpected property',
    });
    expect(stepErrorToJson(undefined, ['invalidRequest'], 'x')).not.toHaveProperty('verificationId');
  });
});
