import {
  recordTopic,
  startServiceUnderTest,
  type ServiceUnderTest,
  type TopicRecorder,
} from '@eligo/local-infra';
import { definition as organizationsDefinition } from '@eligo/organizations';
import { definition as programsDefinition } from '@eligo/programs';
import {
  organizationsV1,
  programsProgramV1,
  programsV1,
  verificationV1,
  verificationVerificationV1,
} from '@eligo/proto';
import {
  createClient,
  createDb,
  decodeGrpcError,
  type DecodedGrpcError,
  type GrpcClient,
  type Knex,
} from '@eligo/runtime';
import { definition } from '../src';
import { verificationTopic } from '../src/events/topics';

export type VerificationClient = GrpcClient<typeof verificationV1.VerificationServiceService>;
export type ProgramsClient = GrpcClient<typeof programsV1.ProgramsServiceService>;
export type OrganizationsClient = GrpcClient<typeof organizationsV1.OrganizationsServiceService>;
export type Subject = verificationVerificationV1.Subject;
export const { ProgramMode, OfferType } = programsProgramV1;

export interface Harness {
  sut: ServiceUnderTest;
  client: VerificationClient;
  programs: ProgramsClient;
  organizations: OrganizationsClient;
  /** A pool on the verification schema, for assertions on stored rows. */
  db: Knex;
  stop(): Promise<void>;
}

/** The verification module with the programs and organizations modules it calls, on a fresh database. */
export async function startVerification(env: Record<string, string> = {}): Promise<Harness> {
  const sut = await startServiceUnderTest({
    modules: {
      programs: programsDefinition,
      organizations: organizationsDefinition,
      verification: definition,
    },
    targets: ['programs', 'organizations', 'verification'],
    env: {
      ELIGO_ORGANIZATIONS_SEED: 'none',
      ELIGO_ORGANIZATIONS_PROGRAM_CACHE_MS: '0',
      ELIGO_VERIFICATION_PROGRAM_CACHE_MS: '0',
      ...env,
    },
  });
  const options = { deadlineMs: 20_000, breaker: false } as const;
  const client = createClient(verificationV1.VerificationServiceClient, sut.grpcAddress, options);
  const programs = createClient(programsV1.ProgramsServiceClient, sut.grpcAddress, options);
  const organizations = createClient(organizationsV1.OrganizationsServiceClient, sut.grpcAddress, options);
  const db = createDb({
    url: sut.databaseUrl,
    schema: 'verification',
    poolMax: 4,
    applicationName: 'ver-it',
  });
  return {
    sut,
    client,
    programs,
    organizations,
    db,
    async stop() {
      client.close();
      programs.close();
      organizations.close();
      await db.destroy();
      await sut.stop();
    },
  };
}

/** A new account's program (test mode, static code SAVE10, student segment unless overridden). */
export async function newProgram(
  programs: ProgramsClient,
  overrides: Partial<programsProgramV1.Program> = {},
): Promise<programsProgramV1.Program> {
  const { account } = await programs.unary('createAccount', { name: 'Acme' });
  const { program } = await programs.unary('createProgram', {
    program: programsProgramV1.Program.create({
      accountId: account!.accountId,
      name: 'Offer',
      segment: 'student',
      offerType: OfferType.OFFER_TYPE_STATIC_CODE,
      rewardCode: 'SAVE10',
      ...overrides,
    }),
  });
  return program!;
}

export function subject(fields: Partial<Subject>): Subject {
  return verificationVerificationV1.Subject.create(fields);
}

export const jane = (extra: Partial<Subject> = {}) =>
  subject({
    firstName: 'Jane',
    lastName: 'Doe',
    birthDate: '2000-01-31',
    email: 'jane.doe@example.com',
    ...extra,
  });

/** The decoded error of a call that must fail (the test fails if it succeeds). */
export async function failure(call: Promise<unknown>): Promise<DecodedGrpcError> {
  try {
    await call;
  } catch (err) {
    return decodeGrpcError(err);
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/**
 * Imports one catalog organization (a US university unless told otherwise) and returns its id, read back
 * through CheckEligibility for `programId` (the import reply carries counts, not ids).
 */
export async function importOrganization(
  h: Harness,
  programId: string,
  name: string,
  extra: { type?: string; country?: string; loginUrl?: string } = {},
): Promise<number> {
  const reply = await h.organizations.unary('importOrganizations', {
    rows: [
      {
        line: 1,
        organization: {
          externalKey: `it:${name}`,
          name,
          type: extra.type ?? 'UNIVERSITY',
          country: extra.country ?? 'US',
          domains: [],
          city: '',
          state: '',
          loginUrl: extra.loginUrl ?? '',
        },
      },
    ],
  });
  if (reply.rejected.length > 0)
    throw new Error(`import of ${name} failed: ${JSON.stringify(reply.rejected)}`);
  const { organization } = await h.organizations.unary('checkEligibility', {
    programId,
    organizationId: 0,
    organizationName: name,
  });
  if (!organization) throw new Error(`${name} is not in the catalog`);
  return organization.id;
}

/**
 * Everything published on the verification topic of the suite's Kafka (the harness's module publishes there
 * through its outbox relay). The topic is shared by the whole run: pick messages by key (the verification id).
 */
export const subscribeVerificationTopic = (): Promise<TopicRecorder> => recordTopic(verificationTopic);

/**
 * The calls most tests make, with the fields they do not vary filled in (empty request id: no retry key).
 * Takes the harness lazily: suites build it in beforeAll.
 */
export function flowCalls(harness: () => Harness) {
  const start = async (
    programId: string,
    trackingId = '',
    requestId = '',
    extra: { metadata?: Record<string, string>; locale?: string } = {},
  ) =>
    (
      await harness().client.unary('startVerification', {
        programId,
        trackingId,
        requestId,
        metadata: extra.metadata ?? {},
        locale: extra.locale ?? '',
      })
    ).verification!;
  const submit = async (verificationId: string, step: string, s = jane(), requestId = '') =>
    (
      await harness().client.unary('submitPersonalInfo', {
        verificationId,
        programId: '',
        trackingId: '',
        step,
        input: { $case: 'subject', subject: s },
        requestId,
      })
    ).verification!;
  /** The program path shape: start and submit in one call. */
  const submitToProgram = (programId: string, step: string, s = jane(), trackingId = '', requestId = '') =>
    harness().client.unary('submitPersonalInfo', {
      verificationId: '',
      programId,
      trackingId,
      step,
      input: { $case: 'subject', subject: s },
      requestId,
    });
  return { start, submit, submitToProgram };
}
