import { programsProgramV1 } from '@eligo/proto';
import { startSourceServer, testSourceSecret, type SourceBehaviour } from './source-server';
import {
  flowCalls,
  importOrganization,
  jane,
  newProgram,
  ProgramMode,
  startVerification,
  subject,
  type Harness,
} from './support';

const { InstantSourceType } = programsProgramV1;
const secret = testSourceSecret(3);
const DEADLINE_MS = 800;

/**
 * Issue 22, the HTTP instant-match source of a live program, through the real programs, organizations and
 * verification modules on Postgres and a real local endpoint: its signed yes is a success (verificationMethod
 * HTTP_SOURCE), its no, a bad signature or silence is docUpload within the deadline, every call counts as an
 * attempt, and the source is asked while the verification row is NOT locked.
 */
describe('instant-match sources', () => {
  let h: Harness;
  let behave: (body: string) => SourceBehaviour = () => ({ answer: true });
  let server: Awaited<ReturnType<typeof startSourceServer>>;
  const calls = flowCalls(() => h);
  beforeAll(async () => {
    server = await startSourceServer(secret, (body) => behave(body));
    h = await startVerification({
      ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
      ELIGO_VERIFICATION_INSTANT_SOURCE_DEADLINE_MS: String(DEADLINE_MS),
      ELIGO_VERIFICATION_PROGRAM_CACHE_MS: '0',
    });
  });
  afterAll(async () => {
    await h?.stop();
    await server?.close();
  });

  async function liveMemberProgram(url = server.url) {
    const program = await newProgram(h.programs, {
      segment: 'member',
      mode: ProgramMode.PROGRAM_MODE_LIVE,
      instantMatch: {
        sources: [{ type: InstantSourceType.INSTANT_SOURCE_TYPE_HTTP, subSegments: [] }],
        http: { url, secret, sealedSecret: Buffer.alloc(0) },
        emailLoop: false,
      },
    });
    const organization = {
      id: await importOrganization(h, program.programId, `Club ${program.programId}`, { type: 'MEMBERSHIP' }),
      name: '',
    };
    return { program, organization };
  }

  const member = (organization: { id: number; name: string }, firstName = 'Jane') =>
    subject({ ...jane(), firstName, birthDate: '', organization });
  const details = async (accountId: string, verificationId: string) =>
    (await h.client.unary('getVerificationDetails', { accountId, verificationId })).details!;
  const submitTo = async (programId: string, s: ReturnType<typeof member>, requestId = '') => {
    const { verificationId } = await calls.start(programId);
    const answer = await calls.submit(verificationId, 'collectMemberPersonalInfo', s, requestId);
    return { verificationId, answer };
  };

  it('succeeds on the signed yes, with verificationMethod HTTP_SOURCE and one attempt', async () => {
    behave = () => ({ answer: true });
    const { program, organization } = await liveMemberProgram();
    const { verificationId, answer } = await submitTo(program.programId, member(organization));
    expect([answer.currentStep, answer.errorIds, answer.rewardCode, answer.instantMatchAttempts]).toEqual([
      'success',
      [],
      'SAVE10',
      1,
    ]);
    expect((await details(program.accountId, verificationId)).verificationMethod).toBe('HTTP_SOURCE');
    const sent = JSON.parse(server.received.at(-1)!.body) as { subject: Record<string, unknown> };
    expect(server.received.at(-1)!.verified).toBe(true);
    // The organization as the catalog accepted it; nothing the form did not need.
    expect(sent.subject).toEqual({
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane.doe@example.com',
      organization: { id: organization.id, name: `Club ${program.programId}` },
    });
  });

  it.each<[string, SourceBehaviour]>([
    ['a signed no', { answer: false }],
    ['a yes signed with another secret', { answer: true, sign: 'wrongSecret' }],
    ['an unsigned yes', { answer: true, sign: 'none' }],
    ['a 500', { status: 500 }],
  ])('sends %s to docUpload, counting the attempt', async (_, behaviour) => {
    behave = () => behaviour;
    const { program, organization } = await liveMemberProgram();
    const { verificationId, answer } = await submitTo(program.programId, member(organization));
    expect([answer.currentStep, answer.instantMatchAttempts]).toEqual(['docUpload', 1]);
    expect((await details(program.accountId, verificationId)).verificationMethod).toBe('');
  });

  it('gives up on a hung source at its deadline, without holding the verification locked', async () => {
    behave = () => ({ hang: true });
    const { program, organization } = await liveMemberProgram();
    const { verificationId } = await calls.start(program.programId);
    const t0 = Date.now();
    const pending = calls.submit(verificationId, 'collectMemberPersonalInfo', member(organization));
    // While the source is being waited for, the row can be locked by anyone else at once.
    await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS / 2));
    await h.db.transaction(async (trx) => {
      await trx.raw('select id from verification.verifications where id = ? for update nowait', [
        verificationId,
      ]);
    });
    const answer = await pending;
    const ms = Date.now() - t0;
    expect([answer.currentStep, answer.instantMatchAttempts]).toEqual(['docUpload', 1]);
    expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(ms).toBeLessThan(DEADLINE_MS + 3000);
  });

  it('discards a yes computed for a state that changed meanwhile: the concurrent submission decides', async () => {
    // The slow one's yes arrives after the fast one's no was committed.
    behave = (body) => (body.includes('"Slow"') ? { answer: true, delayMs: 400 } : { answer: false });
    const { program, organization } = await liveMemberProgram();
    const { verificationId } = await calls.start(program.programId);
    const step = 'collectMemberPersonalInfo';
    const slow = calls.submit(verificationId, step, member(organization, 'Slow'), 'r-slow');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const fast = await calls.submit(verificationId, step, member(organization, 'Fast'), 'r-fast');
    expect(fast.currentStep).toBe('docUpload');
    const late = await slow;
    // Its yes was for collectMemberPersonalInfo: the locked transaction finds docUpload, answers invalidStep
    // and stores nothing.
    expect([late.currentStep, late.errorIds]).toEqual(['docUpload', ['invalidStep']]);
    const after = await details(program.accountId, verificationId);
    expect([after.personInfo!.firstName, after.verificationMethod]).toEqual(['Fast', '']);
  });

  it('leaves test mode to its triggers: no source is asked', async () => {
    behave = () => ({ answer: false });
    const { program, organization } = await liveMemberProgram();
    await h.programs.unary('updateProgram', {
      programId: program.programId,
      accountId: program.accountId,
      program: programsProgramV1.Program.create({ mode: ProgramMode.PROGRAM_MODE_TEST }),
      updateMask: ['mode'],
    });
    const before = server.received.length;
    const { answer } = await submitTo(program.programId, member(organization));
    expect(answer.currentStep).toBe('success');
    expect(server.received.length).toBe(before);
  });
});
