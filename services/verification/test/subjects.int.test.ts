import { randomBytes } from 'node:crypto';
import { LICENSED_PROFESSIONAL_STATUSES } from '../src/domain/statuses';
import {
  importOrganization,
  newProgram,
  ProgramMode,
  startVerification,
  subject,
  type Harness,
  type Subject,
  flowCalls,
} from './support';

/**
 * Every subject type of a test-mode program through the real gRPC API: a valid body succeeds with the
 * program's code, an invalid field keeps the step with the field's errorIds, firstName REJECTED goes to
 * docUpload. Military goes through its status step first.
 */
describe('verification subjects', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVerification();
  });
  afterAll(async () => {
    await h?.stop();
  });

  interface SubjectCase {
    type: string;
    segment: string;
    /** The catalog type of the organization the subject names (types with an organization field). */
    orgType?: string;
    valid: Partial<Subject>;
    invalid: [what: string, change: Partial<Subject>, errorIds: string[]][];
  }

  const person = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com' };
  const badEmail: SubjectCase['invalid'][number] = ['bad email', { email: 'jane.doe@' }, ['invalidEmail']];
  const CASES: SubjectCase[] = [
    {
      type: 'Age',
      segment: 'age',
      valid: { birthDate: '1985-03-14', postalCode: '10001', phoneNumber: '+14155552671', country: 'US' },
      invalid: [
        badEmail,
        ['bad birthDate', { birthDate: '1985-02-30' }, ['invalidBirthDate']],
        ['bad postalCode', { postalCode: '1234' }, ['invalidPostalCode']],
        ['bad phoneNumber', { phoneNumber: '555' }, ['invalidPhoneNumber']],
        ['future birthDate', { birthDate: '2999-01-01' }, ['futureBirthDate']],
        ['bad firstName and email', { firstName: '123', email: 'x' }, ['invalidFirstName', 'invalidEmail']],
      ],
    },
    {
      type: 'Senior',
      segment: 'senior',
      valid: { birthDate: '1950-05-05', postalCode: '10001' },
      invalid: [
        badEmail,
        ['bad birthDate', { birthDate: '05/05/1950' }, ['invalidBirthDate']],
        ['bad postalCode', { postalCode: 'not-a-zip' }, ['invalidPostalCode']],
      ],
    },
    {
      type: 'LowIncome',
      segment: 'lowIncome',
      valid: {
        country: 'US',
        birthDate: '1985-03-14',
        address1: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        postalCode: '62701',
        phoneNumber: '+12175550100',
        statuses: ['SNAP_BENEFITS'],
        ebtCardNumber: '5077 1234 5678 9012',
      },
      invalid: [
        badEmail,
        ['bad state', { state: 'ZZ' }, ['invalidState']],
        ['bad status', { statuses: ['POLICE'] }, ['invalidRequest']],
        ['bad city', { city: '' }, ['invalidCity']],
      ],
    },
    {
      type: 'Member',
      segment: 'member',
      orgType: 'MEMBERSHIP',
      valid: {},
      invalid: [badEmail, ['no organization', { organization: undefined }, ['noOrganization']]],
    },
    {
      type: 'DriverLicense',
      segment: 'driverLicense',
      valid: { state: 'CA', driverLicenseNumber: 'D1234567' },
      invalid: [badEmail, ['bad state', { state: 'XX' }, ['invalidState']]],
    },
    {
      type: 'Teacher',
      segment: 'teacher',
      orgType: 'K12',
      valid: { birthDate: '1985-03-14' },
      invalid: [
        badEmail,
        ['bad birthDate', { birthDate: '2001-02-29' }, ['invalidBirthDate']],
        ['unknown organization', { organization: { id: 987654, name: '' } }, ['invalidOrganization']],
      ],
    },
    {
      type: 'FirstResponder',
      segment: 'firstResponder',
      orgType: 'FIRST_RESPONDER',
      valid: { birthDate: '1985-03-14', status: 'POLICE' },
      invalid: [
        badEmail,
        ['bad status', { status: 'NURSE' }, ['invalidRequest']],
        ['no status', { status: '' }, ['invalidRequest']],
      ],
    },
    {
      type: 'LicensedProfessional',
      segment: 'licensedProfessional',
      orgType: 'GOVERNMENT',
      valid: { birthDate: '1985-03-14', postalCode: '10001', statuses: ['LICENSED_COSMETOLOGIST'] },
      invalid: [
        badEmail,
        ['bad status', { statuses: ['DOCTOR'] }, ['invalidRequest']],
        ['bad postalCode', { postalCode: 'ABC' }, ['invalidPostalCode']],
      ],
    },
    {
      type: 'Mover',
      segment: 'mover',
      valid: { address1: '1 Main St', postalCode: '10001', statuses: ['HOME_BUYER'] },
      invalid: [
        badEmail,
        ['bad status', { statuses: ['SNAP_BENEFITS'] }, ['invalidRequest']],
        ['no address1', { address1: '' }, ['invalidAddress1']],
      ],
    },
    {
      type: 'MedicalProfessional',
      segment: 'medicalProfessional',
      orgType: 'MEDICAL',
      valid: { birthDate: '1985-03-14', status: 'NURSE', postalCode: '10001' },
      invalid: [
        badEmail,
        ['bad status', { status: 'POLICE' }, ['invalidRequest']],
        ['bad postalCode', { postalCode: '??' }, ['invalidPostalCode']],
      ],
    },
  ];

  /** A catalog organization of the type, imported once (the catalog is shared by every program). */
  const orgs = new Map<string, Promise<number>>();
  const organizationOf = (programId: string, type: string) => {
    if (!orgs.has(type)) orgs.set(type, importOrganization(h, programId, `Org ${type}`, { type }));
    return orgs.get(type)!;
  };

  /** A new test-mode program of the case's segment and the case's valid subject for it. */
  async function setUp(c: SubjectCase, overrides: Partial<Subject> = {}) {
    const program = await newProgram(h.programs, { segment: c.segment });
    const organization = c.orgType
      ? { id: await organizationOf(program.programId, c.orgType), name: '' }
      : undefined;
    return { program, body: subject({ ...person, organization, ...c.valid, ...overrides }) };
  }
  const { start, submit } = flowCalls(() => h);

  describe.each(CASES)('$type', (c) => {
    const step = `collect${c.type}PersonalInfo`;

    it('starts on its collect step and succeeds with the reward code', async () => {
      const { program, body } = await setUp(c);
      const started = await start(program.programId);
      expect([started.currentStep, started.segment]).toEqual([step, c.segment]);
      const vr = await submit(started.verificationId, step, body);
      expect(vr).toMatchObject({ currentStep: 'success', rewardCode: 'SAVE10', errorIds: [] });
    });

    it.each(c.invalid)('keeps the step on %s', async (_what, change, errorIds) => {
      const { program, body } = await setUp(c, change);
      const { verificationId } = await start(program.programId);
      const vr = await submit(verificationId, step, body);
      expect([vr.currentStep, vr.errorIds, vr.rewardCode]).toEqual([step, errorIds, undefined]);
    });

    it('goes to docUpload for firstName REJECTED', async () => {
      const { program, body } = await setUp(c, { firstName: 'REJECTED' });
      const { verificationId } = await start(program.programId);
      const vr = await submit(verificationId, step, body);
      expect([vr.currentStep, vr.errorIds, vr.rewardCode]).toEqual(['docUpload', [], undefined]);
    });
  });

  it.each(CASES.filter((c) => c.type === 'LowIncome' || c.type === 'Member'))(
    '$type: starts and succeeds in one call on the program path shape',
    async (c) => {
      const { program, body } = await setUp(c);
      const trackingId = `t-${randomBytes(4).toString('hex')}`;
      const { verification } = await h.client.unary('submitPersonalInfo', {
        requestId: '',
        verificationId: '',
        programId: program.programId,
        trackingId,
        step: `collect${c.type}PersonalInfo`,
        input: { $case: 'subject', subject: body },
      });
      expect(verification).toMatchObject({
        currentStep: 'success',
        rewardCode: 'SAVE10',
        segment: c.segment,
      });
      const byTracking = await h.client.unary('getVerificationByTrackingId', {
        programId: program.programId,
        trackingId,
      });
      expect(byTracking.verification!.verificationId).toBe(verification!.verificationId);
    },
  );

  it.each([
    ['FirstResponder', 'police'],
    ['MedicalProfessional', 'nurse'],
    ['LicensedProfessional', 'licensedCosmetologist'],
    ['Mover', 'homeBuyer'],
    ['LowIncome', 'snapBenefits'],
  ])('%s: the status confirms its sub-segment', async (type, subSegment) => {
    const c = CASES.find((x) => x.type === type)!;
    const { program, body } = await setUp(c);
    const { verificationId } = await start(program.programId);
    const vr = await submit(verificationId, `collect${type}PersonalInfo`, body);
    expect([vr.currentStep, vr.subSegment]).toEqual(['success', subSegment]);
  });

  it('refuses a status outside the sub-segments the program offers', async () => {
    const c = CASES.find((x) => x.type === 'FirstResponder')!;
    const { body } = await setUp(c);
    const program = await newProgram(h.programs, { segment: 'firstResponder', subSegments: ['fireFighter'] });
    const started = await start(program.programId);
    expect(started.availableStatuses).toEqual(['FIREFIGHTER']);
    const vr = await submit(started.verificationId, 'collectFirstResponderPersonalInfo', body);
    expect([vr.currentStep, vr.errorIds]).toEqual(['collectFirstResponderPersonalInfo', ['invalidRequest']]);
  });

  it.each<[string, Partial<Subject>, string]>([
    ['FirstResponder', { status: 'NURSE' }, "status: 'NURSE' is not an allowed value"],
    ['FirstResponder', { status: '' }, 'status is required'],
    ['MedicalProfessional', { status: 'POLICE' }, "status: 'POLICE' is not an allowed value"],
    [
      'LicensedProfessional',
      { statuses: ['LICENSED_COSMETOLOGIST', 'DOCTOR'] },
      "statuses: 'DOCTOR' is not an allowed value",
    ],
    ['Mover', { statuses: ['SNAP_BENEFITS'] }, "statuses: 'SNAP_BENEFITS' is not an allowed value"],
    ['LowIncome', { statuses: ['POLICE'] }, "statuses: 'POLICE' is not an allowed value"],
  ])(
    '%s: an unknown status %j is invalidRequest naming the allowed values',
    async (type, change, problem) => {
      const c = CASES.find((x) => x.type === type)!;
      const { program, body } = await setUp(c, change);
      const started = await start(program.programId);
      const vr = await submit(started.verificationId, `collect${type}PersonalInfo`, body);
      expect([vr.currentStep, vr.errorIds]).toEqual([started.currentStep, ['invalidRequest']]);
      expect(vr.systemErrorMessage).toBe(
        `${problem}. Allowed values: ${started.availableStatuses.join(', ')}`,
      );
      expect(started.availableStatuses.length).toBeGreaterThan(0);
    },
  );

  it('LicensedProfessional: offers its statuses, narrowed to the sub-segments of the program', async () => {
    const all = await start((await newProgram(h.programs, { segment: 'licensedProfessional' })).programId);
    expect(all.availableStatuses).toEqual([...LICENSED_PROFESSIONAL_STATUSES]);
    const c = CASES.find((x) => x.type === 'LicensedProfessional')!;
    const { body } = await setUp(c, { statuses: ['ARCHITECT'] });
    const program = await newProgram(h.programs, {
      segment: 'licensedProfessional',
      subSegments: ['veterinarian', 'architect'],
    });
    const started = await start(program.programId);
    expect(started.availableStatuses).toEqual(['VETERINARIAN', 'ARCHITECT']);
    const vr = await submit(started.verificationId, 'collectLicensedProfessionalPersonalInfo', body);
    expect([vr.currentStep, vr.subSegment]).toEqual(['success', 'architect']);
  });

  it.each([
    ['Age', { segment: 'age' }, '1985-03-14'],
    ['Senior', { segment: 'senior' }, '1950-05-05'],
  ])(
    '%s: needs no postal code (the birth date decides), in test and live mode',
    async (type, settings, birthDate) => {
      const body = subject({ ...person, birthDate });
      for (const mode of [ProgramMode.PROGRAM_MODE_TEST, ProgramMode.PROGRAM_MODE_LIVE]) {
        const program = await newProgram(h.programs, { ...settings, mode, minAge: 18 });
        const { verificationId } = await start(program.programId);
        const vr = await submit(verificationId, `collect${type}PersonalInfo`, body);
        expect([vr.currentStep, vr.errorIds]).toEqual(['success', []]);
      }
    },
  );

  describe('military', () => {
    const military = async (status: string) => {
      const program = await newProgram(h.programs, { segment: 'military' });
      const army = await organizationOf(program.programId, 'MILITARY');
      const { verificationId } = await start(program.programId);
      const { verification } = await h.client.unary('submitMilitaryStatus', {
        requestId: '',
        verificationId,
        status,
      });
      const body = (extra: Partial<Subject> = {}) =>
        subject({ ...person, birthDate: '1980-02-02', organization: { id: army, name: '' }, ...extra });
      return { verificationId, step: verification!, body };
    };

    it('refuses an unknown status with invalidMilitaryStatus naming the allowed values', async () => {
      const program = await newProgram(h.programs, {
        segment: 'military',
        subSegments: ['veteran', 'militaryRetiree'],
      });
      const { verificationId } = await start(program.programId);
      const { verification } = await h.client.unary('submitMilitaryStatus', {
        requestId: '',
        verificationId,
        status: 'ACTIVE_DUTY',
      });
      expect(verification).toMatchObject({
        currentStep: 'collectMilitaryStatus',
        errorIds: ['invalidMilitaryStatus'],
        systemErrorMessage:
          "status: 'ACTIVE_DUTY' is not an allowed value. Allowed values: VETERAN, MILITARY_RETIREE",
      });
    });

    it('ACTIVE_DUTY: the active collect step, then success with the sub-segment', async () => {
      const { verificationId, step, body } = await military('ACTIVE_DUTY');
      expect([step.currentStep, step.subSegment]).toEqual([
        'collectActiveMilitaryPersonalInfo',
        'activeDuty',
      ]);
      const vr = await submit(verificationId, 'collectActiveMilitaryPersonalInfo', body());
      expect(vr).toMatchObject({
        currentStep: 'success',
        subSegment: 'activeDuty',
        rewardCode: 'SAVE10',
        errorIds: [],
      });
    });

    it('VETERAN: the inactive collect step with the discharge date, then success', async () => {
      const { verificationId, step, body } = await military('VETERAN');
      expect([step.currentStep, step.subSegment]).toEqual(['collectInactiveMilitaryPersonalInfo', 'veteran']);
      const vr = await submit(
        verificationId,
        'collectInactiveMilitaryPersonalInfo',
        body({ dischargeDate: '2010-06-01' }),
      );
      expect(vr).toMatchObject({ currentStep: 'success', subSegment: 'veteran', rewardCode: 'SAVE10' });
    });

    it.each([
      ['that is malformed', '2010-13-01', ['invalidDischargeDate']],
      ['that is missing', '', ['invalidDischargeDate']],
      ['in the future', '2999-01-01', ['invalidDischargeDate']],
      ['before the birth date', '1979-12-31', ['dischargeDateBeforeBirthDate']],
    ])('VETERAN: a discharge date %s is a recoverable error', async (_what, dischargeDate, errorIds) => {
      const { verificationId, body } = await military('VETERAN');
      const step = 'collectInactiveMilitaryPersonalInfo';
      const bad = await submit(verificationId, step, body({ dischargeDate }));
      expect([bad.currentStep, bad.errorIds]).toEqual([step, errorIds]);
      const good = await submit(verificationId, step, body({ dischargeDate: '2010-06-01' }));
      expect(good.currentStep).toBe('success');
    });
  });
});
