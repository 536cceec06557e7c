import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceUnderTest, type ServiceUnderTest } from '@eligo/local-infra';
import { definition as organizationsDefinition } from '@eligo/organizations';
import { definition as programsDefinition } from '@eligo/programs';
import {
  notifierV1,
  programsProgramV1,
  programsV1,
  verificationV1,
  verificationVerificationV1,
} from '@eligo/proto';
import {
  createClient,
  createDb,
  createLogger,
  launch,
  loadConfig,
  type GrpcClient,
  type Knex,
  type ModuleDefinition,
  type ModuleName,
  type RunningProcess,
} from '@eligo/runtime';
import { definition as verificationDefinition } from '@eligo/verification';
import { definition } from '../src';

export type NotifierClient = GrpcClient<typeof notifierV1.NotifierServiceService>;
export type ProgramsClient = GrpcClient<typeof programsV1.ProgramsServiceService>;
export type VerificationClient = GrpcClient<typeof verificationV1.VerificationServiceService>;
export const { WebhookNotification, ProgramMode } = programsProgramV1;

/** Settings every notifier under test gets: receivers on loopback, a quick schedule, no stale webhook cache. */
export const TEST_ENV: Record<string, string> = {
  ELIGO_ORGANIZATIONS_SEED: 'none',
  ELIGO_VERIFICATION_PROGRAM_CACHE_MS: '0',
  ELIGO_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
  ELIGO_WEBHOOK_RETRY_SCHEDULE: '0,300ms,300ms,300ms',
  ELIGO_WEBHOOK_DISPATCH_MS: '100',
  ELIGO_NOTIFIER_WEBHOOK_CACHE_MS: '0',
};

const clientOptions = { deadlineMs: 20_000, breaker: false } as const;

export interface Harness {
  sut: ServiceUnderTest;
  programs: ProgramsClient;
  verification: VerificationClient;
  /** The notifier's API (in the same process, or the notifier's own with startSplit). */
  notifier: NotifierClient;
  /** A pool on the notifier schema, for assertions on stored rows. */
  db: Knex;
  stop(): Promise<void>;
}

function clients(sut: ServiceUnderTest, notifierAddress = sut.grpcAddress) {
  return {
    programs: createClient(programsV1.ProgramsServiceClient, sut.grpcAddress, clientOptions),
    verification: createClient(verificationV1.VerificationServiceClient, sut.grpcAddress, clientOptions),
    notifier: createClient(notifierV1.NotifierServiceClient, notifierAddress, clientOptions),
    db: createDb({ url: sut.databaseUrl, schema: 'notifier', poolMax: 4, applicationName: 'notifier-it' }),
  };
}

/** The notifier with the modules it needs (programs, verification, and what that calls) in one process. */
export async function startNotifier(env: Record<string, string> = {}): Promise<Harness> {
  const sut = await startServiceUnderTest({
    modules: {
      programs: programsDefinition,
      organizations: organizationsDefinition,
      verification: verificationDefinition,
      notifier: definition,
    },
    targets: ['programs', 'organizations', 'verification', 'notifier'],
    env: { ...TEST_ENV, ...env },
  });
  const c = clients(sut);
  return {
    sut,
    ...c,
    async stop() {
      for (const client of [c.programs, c.verification, c.notifier]) client.close();
      await c.db.destroy();
      await sut.stop();
    },
  };
}

/** A notifier process of its own, on the same database as `sut` (a split deployment, or a replacement). */
export interface NotifierProcess {
  grpcAddress: string;
  running: RunningProcess;
  stop(): Promise<void>;
}

export async function launchNotifier(
  sut: ServiceUnderTest,
  env: Record<string, string>,
): Promise<NotifierProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'eligo-notifier-it-'));
  const config = loadConfig({
    ...sut.config.env,
    ...TEST_ENV,
    ELIGO_HTTP_PORT: '0',
    ELIGO_GRPC_PORT: '0',
    ELIGO_DATA_DIR: dataDir,
    ELIGO_KAFKA_CLIENT_ID: `it-notifier-${randomBytes(3).toString('hex')}`,
    ELIGO_PROGRAMS_GRPC_ADDRESS: sut.grpcAddress,
    ELIGO_VERIFICATION_GRPC_ADDRESS: sut.grpcAddress,
    ...env,
  });
  const running = await launch({
    config,
    targets: ['notifier'],
    modules: { notifier: definition } as Record<ModuleName, ModuleDefinition>,
    logger: createLogger({ level: config.logLevel }),
    version: '0.0.0-test',
    gitCommit: '',
  });
  return {
    grpcAddress: `127.0.0.1:${running.info.grpcPort}`,
    running,
    async stop() {
      await running.shutdown('test done');
      await running.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Programs, organizations and verification in one process; the notifier started (and restarted) apart. */
export async function startSplit(): Promise<Omit<Harness, 'notifier'> & { sut: ServiceUnderTest }> {
  const sut = await startServiceUnderTest({
    modules: {
      programs: programsDefinition,
      organizations: organizationsDefinition,
      verification: verificationDefinition,
    },
    targets: ['programs', 'organizations', 'verification'],
    env: TEST_ENV,
  });
  const { notifier, ...c } = clients(sut);
  notifier.close();
  return {
    sut,
    ...c,
    async stop() {
      c.programs.close();
      c.verification.close();
      await c.db.destroy();
      await sut.stop();
    },
  };
}

/** An age program of a new account (test mode unless told otherwise): no catalog organization needed. */
export async function newProgram(
  programs: ProgramsClient,
  overrides: Partial<programsProgramV1.Program> = {},
): Promise<{ programId: string; accountId: string }> {
  const { account } = await programs.unary('createAccount', { name: 'Hooks Inc' });
  const { program } = await programs.unary('createProgram', {
    program: programsProgramV1.Program.create({
      accountId: account!.accountId,
      name: 'Offer',
      segment: 'age',
      minAge: 21,
      offerType: programsProgramV1.OfferType.OFFER_TYPE_STATIC_CODE,
      rewardCode: 'SAVE10',
      ...overrides,
    }),
  });
  return { programId: program!.programId, accountId: account!.accountId };
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

const adult = verificationVerificationV1.Subject.create({
  firstName: 'Jane',
  lastName: 'Doe',
  birthDate: '1980-01-31',
  postalCode: '10001',
  country: 'US',
  email: 'jane.doe@example.com',
});

/** The verification calls the tests make. */
export function flow(verification: () => VerificationClient) {
  return {
    async start(programId: string): Promise<string> {
      const reply = await verification().unary('startVerification', {
        programId,
        trackingId: '',
        requestId: '',
        metadata: {},
        locale: '',
      });
      return reply.verification!.verificationId;
    },
    /** Test mode: a normal name succeeds. */
    async succeed(verificationId: string): Promise<void> {
      const { verification: vr } = await verification().unary('submitPersonalInfo', {
        verificationId,
        programId: '',
        trackingId: '',
        step: 'collectAgePersonalInfo',
        input: { $case: 'subject', subject: adult },
        requestId: '',
      });
      if (vr?.currentStep !== 'success') throw new Error(`expected success, got ${JSON.stringify(vr)}`);
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
  return notifier.unary('listWebhookDeliveries', { programId, limit: 100, cursor: '' });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
