import {
  createTestProgram,
  failure,
  importOrganization,
  recordTopic,
  startModules,
  testSubject,
  verificationCalls,
  type ProgramsClient,
  type Subject,
  type TopicRecorder,
} from '@eligo/local-infra';
import {
  organizationsV1,
  programsProgramV1,
  programsV1,
  verificationV1,
  verificationVerificationV1,
} from '@eligo/proto';
import { definition } from '../src';
import { verificationTopic } from '../src/events/topics';

export { failure, importOrganization, type Subject };
export const { ProgramMode, OfferType } = programsProgramV1;

/** The verification module with the programs and organizations modules it calls, on a fresh database. */
export async function startVerification(env: Record<string, string> = {}) {
  const sut = await startModules('verification', { modules: { verification: definition }, env });
  return {
    sut,
    client: sut.client(verificationV1.VerificationServiceClient),
    programs: sut.client(programsV1.ProgramsServiceClient),
    organizations: sut.client(organizationsV1.OrganizationsServiceClient),
    db: sut.db('verification'),
    stop: sut.stop,
  };
}
export type Harness = Awaited<ReturnType<typeof startVerification>>;

/** A new account's program (test mode, static code SAVE10, student segment unless overridden). */
export const newProgram = (
  programs: ProgramsClient,
  overrides: Partial<programsProgramV1.Program> = {},
): Promise<programsProgramV1.Program> =>
  createTestProgram(programs, {
    offerType: OfferType.OFFER_TYPE_STATIC_CODE,
    rewardCode: 'SAVE10',
    ...overrides,
  });

export const subject = (fields: Partial<Subject>): Subject =>
  verificationVerificationV1.Subject.create(fields);

/** Jane Doe, born 2000-01-31, jane.doe@example.com. */
export const jane = testSubject;

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
  const calls = verificationCalls(() => harness().client);
  const start = (
    programId: string,
    trackingId = '',
    requestId = '',
    extra: { metadata?: Record<string, string>; locale?: string } = {},
  ) => calls.start(programId, { trackingId, requestId, ...extra });
  const submit = (verificationId: string, step: string, s = jane(), requestId = '') =>
    calls.submit(verificationId, step, s, requestId);
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
