import {
  decodeQuotedPrintable,
  startSmtpCapture,
  type ServiceUnderTest,
  type SmtpCapture,
} from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { organizationsApi } from '../support/organizations-api';
import { programsApi, type ProgramsApi } from '../support/programs-api';
import { verificationApi, type VerificationApi } from '../support/verification-api';

// Issue 22, the email loop end to end (`--target all` on the suite's Postgres and Kafka): a live member
// program that offers it sends a person whose email is at the organization's domain to step emailLoop; the
// code arrives through the notifier (mailed through a real SMTP server run by the test) and completes the verification
// (verificationMethod EMAIL_LOOP). Wrong codes, resends, cancel, and test mode's EMAIL_LOOP trigger.
let eligo: ServiceUnderTest;
let smtp: SmtpCapture;
let api: ProgramsApi;
let flow: VerificationApi;

beforeAll(async () => {
  // A real SMTP server: live codes are mailed through it as in production.
  smtp = await startSmtpCapture();
  eligo = await startAllInProcess({ ELIGO_ORGANIZATIONS_SEED: 'none', ELIGO_SMTP_URL: smtp.url });
  api = programsApi(eligo);
  flow = verificationApi(api);
}, 180_000);
afterAll(async () => {
  await eligo?.stop();
  await smtp?.stop();
});

async function liveMemberProgram(emailLoop = true, mode = 'live') {
  const account = await api.createAccount('Loop Club');
  const token = (await api.createToken(account.accountId)).token as string;
  const program = await api.createProgram(account.accountId, {
    segment: 'member',
    mode,
    offerType: 'staticCode',
    rewardCode: 'LOOP10',
    instantMatch: { sources: [], emailLoop },
  });
  const orgs = organizationsApi(api);
  const name = `Loop Club ${program.programId}`;
  const imported = await orgs.importCsv([
    {
      externalId: `e2e-loop-${program.programId}`,
      name,
      type: 'MEMBERSHIP',
      country: 'US',
      domains: ['loopclub.org'],
    },
  ]);
  expect([imported.status, imported.body.created]).toEqual([200, 1]);
  const organization = { id: await orgs.idOf(program.programId, name), name };
  const member = { firstName: 'Jane', lastName: 'Doe', email: 'jane@mail.loopclub.org', organization };
  return { token, program, member };
}

/** The codes mailed for a verification, newest first, as the operator's captured-messages view shows them. */
async function codesOf(verificationId: string): Promise<string[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const reply = await api.admin('GET', `/messages?verificationId=${verificationId}`);
    expect(reply.status).toBe(200);
    const messages = reply.body.messages as { body: string; kind: string }[];
    if (messages.length > 0 || Date.now() > deadline)
      return messages.map((m) => /\b(\d{6})\b/.exec(m.body)?.[1] ?? '');
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function codeCount(verificationId: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const codes = await codesOf(verificationId);
    if (codes.length >= count || Date.now() > deadline) return codes;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

it('mails a code to an address at the organization, and the code completes the verification', async () => {
  const { token, program, member } = await liveMemberProgram();
  const { verificationId } = await flow.started(program.programId);
  const loop = await flow.submit(verificationId, 'collectMemberPersonalInfo', member);
  expect([loop.status, loop.body.currentStep, loop.body.canResendEmailLoop]).toEqual([
    200,
    'emailLoop',
    false,
  ]);
  expect(loop.body.submissionUrl).toMatch(new RegExp(`/verification/${verificationId}/step/emailLoop$`));
  const [code] = await codesOf(verificationId);
  expect(code).toMatch(/^\d{6}$/);
  // The mail itself, as the SMTP server received it: to the address at the organization, with the code and
  // the link back to the hosted page carrying it in the fragment.
  const mail = await smtp.waitForMail(
    (m) => decodeQuotedPrintable(m.raw).includes(`?verificationId=${verificationId}#emailToken=${code}`),
    20_000,
  );
  expect(mail.to).toEqual(['jane@mail.loopclub.org']);

  const bad = await flow.submit(verificationId, 'emailLoop', { emailToken: wrong(code!) });
  expect([bad.status, bad.body.currentStep, bad.body.errorIds]).toEqual([
    400,
    'emailLoop',
    ['invalidEmailLoopToken'],
  ]);
  const done = await flow.submit(verificationId, 'emailLoop', {
    emailToken: `${code!.slice(0, 3)} ${code!.slice(3)}`,
  });
  expect([done.status, done.body.currentStep, done.body.rewardCode]).toEqual([200, 'success', 'LOOP10']);
  const details = await flow.details(verificationId, token);
  expect(details.body.verificationMethod).toBe('EMAIL_LOOP');
  // Used: the code does nothing more.
  const again = await flow.submit(verificationId, 'emailLoop', { emailToken: code });
  expect(again.body.errorIds).toEqual(['invalidStep']);
});

it('mails the code to organizationEmail when the person gives one at the organization', async () => {
  const { program, member } = await liveMemberProgram();
  const { verificationId } = await flow.started(program.programId);
  const loop = await flow.submit(verificationId, 'collectMemberPersonalInfo', {
    ...member,
    email: 'jane@gmail.com',
    organizationEmail: ' Jane@Loopclub.org ',
  });
  expect([loop.status, loop.body.currentStep]).toEqual([200, 'emailLoop']);
  await codeCount(verificationId, 1);
  const reply = await api.admin('GET', `/messages?verificationId=${verificationId}`);
  expect((reply.body.messages as { recipient: string }[]).map((m) => m.recipient)).toEqual([
    'jane@loopclub.org',
  ]);
  // Not an address: refused with the form, naming the field.
  const other = await flow.started(program.programId);
  const bad = await flow.submit(other.verificationId, 'collectMemberPersonalInfo', {
    ...member,
    organizationEmail: 'not an address',
  });
  expect([bad.status, bad.body.errorIds, bad.body.systemErrorMessage]).toEqual([
    400,
    ['invalidRequest'],
    'organizationEmail: must be an email address',
  ]);
});

it('sends an address elsewhere, or a program without the loop, to docUpload', async () => {
  const { program, member } = await liveMemberProgram();
  const elsewhere = await flow.started(program.programId);
  const other = await flow.submit(elsewhere.verificationId, 'collectMemberPersonalInfo', {
    ...member,
    email: 'jane@gmail.example',
  });
  expect(other.body.currentStep).toBe('docUpload');
  const without = await liveMemberProgram(false);
  const started = await flow.started(without.program.programId);
  const reply = await flow.submit(started.verificationId, 'collectMemberPersonalInfo', without.member);
  expect(reply.body.currentStep).toBe('docUpload');
});

it('ends in docUpload at the fifth wrong code', async () => {
  const { program, member } = await liveMemberProgram();
  const { verificationId } = await flow.started(program.programId);
  await flow.submit(verificationId, 'collectMemberPersonalInfo', member);
  const [code] = await codesOf(verificationId);
  for (let i = 1; i <= 4; i++) {
    const reply = await flow.submit(verificationId, 'emailLoop', { emailToken: wrong(code!) });
    expect([i, reply.body.currentStep]).toEqual([i, 'emailLoop']);
  }
  const fifth = await flow.submit(verificationId, 'emailLoop', { emailToken: wrong(code!) });
  expect([fifth.body.currentStep, fifth.body.errorIds]).toEqual(['docUpload', ['invalidEmailLoopToken']]);
  const late = await flow.submit(verificationId, 'emailLoop', { emailToken: code });
  expect(late.body.errorIds).toEqual(['invalidStep']);
});

it('refuses a resend within the cooldown (429) and moves to docUpload on cancel', async () => {
  const { program, member } = await liveMemberProgram();
  const { verificationId } = await flow.started(program.programId);
  await flow.submit(verificationId, 'collectMemberPersonalInfo', member);
  const soon = await api.v2('POST', `/verification/${verificationId}/step/emailLoop/retryEmail`);
  expect([soon.status, soon.body.errorIds]).toEqual([429, ['emailLoopResendTooSoon']]);
  expect((await flow.get(verificationId)).body.canResendEmailLoop).toBe(false);

  const cancelled = await api.v2('DELETE', `/verification/${verificationId}/step/emailLoop`);
  expect([cancelled.status, cancelled.body.currentStep]).toEqual([200, 'docUpload']);
  const after = await api.v2('POST', `/verification/${verificationId}/step/emailLoop/retryEmail`);
  expect(after.body.errorIds).toEqual(['invalidStep']);
});

it('takes test mode to the loop with the first name EMAIL_LOOP, whatever the domain; the code is captured', async () => {
  const { program, member } = await liveMemberProgram(false, 'test');
  const { verificationId } = await flow.started(program.programId);
  const loop = await flow.submit(verificationId, 'collectMemberPersonalInfo', {
    ...member,
    firstName: 'EMAIL_LOOP',
    email: 'someone@example.com',
  });
  expect([loop.status, loop.body.currentStep]).toEqual([200, 'emailLoop']);
  const codes = await codeCount(verificationId, 1);
  expect(codes).toHaveLength(1);
  const done = await flow.submit(verificationId, 'emailLoop', { emailToken: codes[0] });
  expect(done.body.currentStep).toBe('success');
});
