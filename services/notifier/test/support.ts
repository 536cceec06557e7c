import {
  createTestProgram,
  startModules,
  testSubject,
  verificationCalls,
  type ModulesUnderTest,
  type ProgramsClient,
  type VerificationClient,
} from '@eligo/local-infra';
import { notifierV1, programsProgramV1, programsV1, verificationV1 } from '@eligo/proto';
import type { GrpcClient } from '@eligo/runtime';
import { definition } from '../src';

export type NotifierClient = GrpcClient<typeof notifierV1.NotifierServiceService>;
export const { WebhookNotification } = programsProgramV1;

/** Settings every notifier under test gets: receivers on loopback, a quick schedule, no stale webhook cache. */
const TEST_ENV: Record<string, string> = {
  ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
  ELIGO_WEBHOOK_RETRY_SCHEDULE: '0,300ms,300ms,300ms',
  ELIGO_WEBHOOK_DISPATCH_MS: '100',
  ELIGO_NOTIFIER_WEBHOOK_CACHE_MS: '0',
};

/**
 * The notifier with the modules it needs (programs, verification, and what that calls) in one process; those
 * in `remote` are reached at the address given instead (a stand-in the test runs), and not started.
 */
export async function startNotifier(
  env: Record<string, string> = {},
  remote: Partial<Record<'programs' | 'verification', string>> = {},
) {
  const sut = await startModules('notifier', {
    modules: { notifier: definition },
    remote,
    env: { ...TEST_ENV, ...env },
  });
  return {
    sut,
    programs: sut.client(programsV1.ProgramsServiceClient),
    verification: sut.client(verificationV1.VerificationServiceClient),
    notifier: sut.client(notifierV1.NotifierServiceClient),
    db: sut.db('notifier'),
    stop: sut.stop,
  };
}
export type Harness = Awaited<ReturnType<typeof startNotifier>>;

/** A notifier process of its own, on the same database as `sut` (a split deployment, or a replacement). */
export type NotifierProcess = ModulesUnderTest;

export const launchNotifier = (
  sut: ModulesUnderTest,
  env: Record<string, string>,
): Promise<NotifierProcess> =>
  startModules('notifier', { modules: { notifier: definition }, beside: sut, env });

/** The notifier's dependencies in one process; the notifier started (and restarted) apart with launchNotifier. */
export async function startSplit(): Promise<Omit<Harness, 'notifier'>> {
  const sut = await startModules(definition.dependsOn, { env: TEST_ENV });
  return {
    sut,
    programs: sut.client(programsV1.ProgramsServiceClient),
    verification: sut.client(verificationV1.VerificationServiceClient),
    // Its schema exists once a notifier started on the database.
    db: sut.db('notifier'),
    stop: sut.stop,
  };
}

/** An age program of a new account (test mode unless told otherwise): no catalog organization needed. */
export async function newProgram(
  programs: ProgramsClient,
  overrides: Partial<programsProgramV1.Program> = {},
): Promise<{ programId: string; accountId: string }> {
  const { programId, accountId } = await createTestProgram(
    programs,
    {
      segment: 'age',
      minAge: 21,
      offerType: programsProgramV1.OfferType.OFFER_TYPE_STATIC_CODE,
      rewardCode: 'SAVE10',
      ...overrides,
    },
    { accountName: 'Hooks Inc' },
  );
  return { programId, accountId };
}

/** A new program with a webhook to `callbackUri`; the signing secret is shown only here. */
export async function programWithWebhook(
  programs: ProgramsClient,
  callbackUri: string,
  notifications: programsProgramV1.WebhookNotification[] = [],
): Promise<{ programId: string; accountId: string; secret: string }> {
  const program = await newProgram(programs);
  const { signingSecret } = await programs.unary('createWebhook', { ...program, callbackUri, notifications });
  return { ...program, secret: signingSecret };
}

const adult = testSubject({ birthDate: '1980-01-31', postalCode: '10001', country: 'US' });

/** The verification calls the tests make. */
export function flow(verification: () => VerificationClient) {
  const calls = verificationCalls(verification);
  return {
    start: async (programId: string): Promise<string> => (await calls.start(programId)).verificationId,
    /** Test mode: a normal name succeeds. */
    async succeed(verificationId: string): Promise<void> {
      const vr = await calls.submit(verificationId, 'collectAgePersonalInfo', adult);
      if (vr.currentStep !== 'success') throw new Error(`expected success, got ${JSON.stringify(vr)}`);
    },
    async expire(verificationId: string): Promise<void> {
      await verification().unary('expireVerification', { verificationId });
    },
    async refire(accountId: string, verificationId: string): Promise<void> {
      await verification().unary('refireWebhooks', { accountId, verificationId });
    },
  };
}

/** The log of a program's deliveries as the operator sees it. */
export async function deliveryLog(notifier: NotifierClient, programId: string) {
  return notifier.unary('listWebhookDeliveries', { programId, limit: 100, cursor: '', verificationId: '' });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
