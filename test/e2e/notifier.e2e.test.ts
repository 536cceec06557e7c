import type { ServiceUnderTest, SmtpCapture } from '@eligo/local-infra';
import { startSmtpCapture, waitFor } from '@eligo/local-infra';
import { Webhook } from 'standardwebhooks';
import { sampleFiles } from '../support/documents-api';
import { startAllInProcess } from '../support/in-process';
import { programsApi, type ProgramsApi } from '../support/programs-api';
import {
  importUniversity,
  janeDoe,
  verificationApi,
  type VerificationApi,
} from '../support/verification-api';
import {
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '../support/webhook-receiver';

// Webhooks and send-link end to end through the gateway (`--target all` on the suite's Postgres and Kafka):
// a program's webhook is configured over REST, a verification succeeds, and a real HTTP receiver gets the
// signed notification; refire, an opt-in notification, the operator's delivery log and a send-link mail
// received by a real SMTP server.
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let flow: VerificationApi;
let smtp: SmtpCapture;
let receiver: WebhookReceiver;
let callbackUri: string;
let received: ReceivedWebhook[];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  ({ callbackUri, received } = receiver);
  smtp = await startSmtpCapture();
  eligo = await startAllInProcess({
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    ELIGO_SMTP_URL: smtp.url,
    ELIGO_PUBLIC_BASE_URL: 'https://verify.example.test',
  });
  api = programsApi(eligo);
  flow = verificationApi(api);
}, 180_000);
afterAll(async () => {
  await eligo?.stop();
  await smtp?.stop();
  receiver?.close();
});

const forVerification = (verificationId: string) =>
  received.filter(
    (r) => (JSON.parse(r.body) as { verificationId: string }).verificationId === verificationId,
  );

async function programWithWebhook(notifierEventTypes?: string[], settings: Record<string, unknown> = {}) {
  const account = await api.createAccount('Webhooks Co');
  const token = await api.createToken(account.accountId);
  const program = await api.createProgram(account.accountId, settings);
  const res = await api.v2('POST', `/program/${program.programId}/webhook`, {
    token: token.token,
    body: { callbackUri, ...(notifierEventTypes ? { notifierEventTypes } : {}) },
  });
  expect(`${res.status} ${JSON.stringify(res.body)}`).toMatch(/^200 /);
  expect(res.body.webhook.notifierEventTypes).toEqual(notifierEventTypes ?? []);
  return { account, token, programId: program.programId as string, secret: res.body.webhook.signingSecret };
}

it('signs the success notification, resends it on refire, and logs both for the operator', async () => {
  const { token, programId, secret } = await programWithWebhook();
  const organization = await importUniversity(api, programId, 'Webhook E2E University');
  const { verificationId } = await flow.started(programId);
  const done = await flow.submit(verificationId, 'collectStudentPersonalInfo', { ...janeDoe, organization });
  expect(done.body.currentStep).toBe('success');

  const [first] = await waitFor('the success webhook', () => {
    const got = forVerification(verificationId);
    return got.length > 0 ? got : undefined;
  });
  expect(JSON.parse(first!.body)).toEqual({ verificationId });
  expect(first!.headers['content-type']).toMatch(/^application\/json/);
  expect(new Webhook(secret).verify(first!.body, first!.headers as Record<string, string>)).toEqual({
    verificationId,
  });

  const refire = await api.v2('POST', `/verification/${verificationId}/refireWebhooks`, {
    token: token.token,
  });
  expect(refire.status).toBeLessThan(300);
  const again = await waitFor('the refired webhook', () => {
    const got = forVerification(verificationId);
    return got.length > 1 ? got[1] : undefined;
  });
  expect(again.body).toBe(first!.body);
  expect(again.headers['webhook-id']).not.toBe(first!.headers['webhook-id']);

  const log = await api.admin('GET', `/programs/${programId}/webhook/deliveries`);
  expect(log.status).toBe(200);
  expect(log.body.webhook.status).toBe('ACTIVE');
  const deliveries = log.body.deliveries as {
    webhookId: string;
    attempts: { attempt: number; statusCode: number; latencyMs: number }[];
  }[];
  const ids = deliveries.map((d) => d.webhookId);
  expect(ids).toEqual(expect.arrayContaining([first!.headers['webhook-id'], again.headers['webhook-id']]));
  const delivered = deliveries.find((d) => d.webhookId === first!.headers['webhook-id']);
  expect(delivered).toMatchObject({ verificationId, notifierEventType: 'SUCCESS', status: 'DELIVERED' });
  expect(delivered!.attempts[0]).toMatchObject({ attempt: 1, statusCode: 200 });
  expect(delivered!.attempts[0]!.latencyMs).toEqual(expect.any(Number));
});

it('sends an opted-in EXPIRATION notification with its type, and none to a program that did not opt in', async () => {
  const optedIn = await programWithWebhook(['EXPIRATION']);
  const other = await programWithWebhook();
  const expiring = await flow.started(optedIn.programId);
  const ignored = await flow.started(other.programId);
  expect((await flow.expire(expiring.verificationId)).status).toBe(200);
  expect((await flow.expire(ignored.verificationId)).status).toBe(200);

  const note = await waitFor('the expiration webhook', () => forVerification(expiring.verificationId)[0]);
  expect(JSON.parse(note.body)).toEqual({
    verificationId: expiring.verificationId,
    notifierEventType: 'EXPIRATION',
  });
  expect(note.headers['x-eligo-notifier-event-type']).toBe('EXPIRATION');
  expect(new Webhook(optedIn.secret).verify(note.body, note.headers as Record<string, string>)).toBeTruthy();
  // The other program's expiry made no delivery: its log stays empty.
  const log = await api.admin('GET', `/programs/${other.programId}/webhook/deliveries`);
  expect(log.body.deliveries).toEqual([]);
  expect(forVerification(ignored.verificationId)).toEqual([]);
});

it('sends the opted-in DOCUMENT_REJECTED, then MAX_DOC_UPLOAD_ATTEMPTS at the last rejection allowed', async () => {
  const { programId, secret } = await programWithWebhook(['DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS'], {
    maxRejections: 2,
  });
  const organization = await importUniversity(api, programId, 'Webhook Docs University');
  const { verificationId } = await flow.started(programId);
  const sent = await flow.submit(verificationId, 'collectStudentPersonalInfo', {
    ...janeDoe,
    firstName: 'REJECTED',
    organization,
  });
  expect(sent.body.currentStep).toBe('docUpload');
  // Test mode: a file named REJECTED is rejected by the review at once.
  const upload = async () => {
    const form = new FormData();
    form.append('file1', new Blob([sampleFiles.png], { type: 'image/png' }), 'REJECTED.png');
    const res = await fetch(`${eligo.httpUrl}/rest/v2/verification/${verificationId}/step/docUpload`, {
      method: 'POST',
      body: form,
    });
    expect(res.status).toBe(200);
  };
  const types = () =>
    forVerification(verificationId).map((r) => r.headers['x-eligo-notifier-event-type'] as string);

  await upload();
  await waitFor('the DOCUMENT_REJECTED webhook', () =>
    types().includes('DOCUMENT_REJECTED') ? true : undefined,
  );
  await waitFor('docUpload again', async () =>
    (await flow.get(verificationId)).body.currentStep === 'docUpload' ? true : undefined,
  );
  await upload();
  await waitFor('the MAX_DOC_UPLOAD_ATTEMPTS webhook', () =>
    types().includes('MAX_DOC_UPLOAD_ATTEMPTS') ? true : undefined,
  );
  expect(types()).toEqual(['DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS']);
  for (const note of forVerification(verificationId)) {
    expect(new Webhook(secret).verify(note.body, note.headers as Record<string, string>)).toEqual({
      verificationId,
      notifierEventType: note.headers['x-eligo-notifier-event-type'],
    });
  }
});

it('mails the verification link through SMTP and shows the message to the operator', async () => {
  const { token, program } = await api.tenant('Links Co');
  const email = `student-${Date.now()}@example.test`;
  const res = await api.v2('POST', `/program/${program.programId}/sendLink`, {
    token: token.token,
    body: { email, trackingId: 'crm-7' },
  });
  expect(res.status).toBe(204);
  const mail = await smtp.waitForMail((m) => m.to.includes(email), 30_000);
  expect(mail.raw).toContain(program.programId);

  const messages = await waitFor('the message in the log', async () => {
    const list = await api.admin('GET', '/messages');
    const found = list.body.messages as { recipient: string; status: string }[];
    return found.find((m) => m.recipient === email && m.status === 'SENT');
  });
  expect(messages).toMatchObject({ channel: 'EMAIL', programId: program.programId });
});

it('answers 404 for the delivery log of an unknown program', async () => {
  const res = await api.admin('GET', '/programs/0123456789abcdef01234567/webhook/deliveries');
  expect(res.status).toBe(404);
});
