import { verificationV1, type programsV1 } from '@eligo/proto';
import { callDependency, isDomainError, type GrpcClient } from '@eligo/runtime';
import type { PersonalInfo } from '../domain/personal-info';
import type { ReverifyAnswer, ReverifyOutcome } from '../domain/reverify-answer';

/**
 * Adapters to the services reports calls. They wrap the generated clients and answer in the service's own
 * types (docs/architecture.md, "The service template"): protobuf stops here.
 */

export interface LocatedVerification {
  verificationId: string;
  accountId: string;
  programId: string;
}

/** The verification service as the reports service needs it. */
export interface VerificationPort {
  /** Personal information of the account's verifications among the ids (at most 1000), by id. */
  personalInfo(accountId: string, verificationIds: readonly string[]): Promise<Map<string, PersonalInfo>>;
  /** undefined when the verification is not the account's and program's (NOT_FOUND). */
  reverify(accountId: string, programId: string, verificationId: string): Promise<ReverifyAnswer | undefined>;
  locate(
    key: { verificationId: string } | { accountId: string; trackingId: string },
  ): Promise<LocatedVerification | undefined>;
}

/** The programs service as the reports service needs it. */
export interface ProgramsPort {
  /** Whether the program exists and is the account's. */
  isProgramOf(accountId: string, programId: string): Promise<boolean>;
}

function personalInfoOf(row: verificationV1.StreamPersonalInfoResponse): PersonalInfo {
  return {
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phoneNumber: row.phoneNumber,
    birthDate: row.birthDate,
    postalCode: row.postalCode,
    country: row.country,
    metadata: row.metadata,
  };
}

const { ReverifyOutcome: RO } = verificationV1;
const OUTCOMES: Record<number, ReverifyOutcome> = {
  [RO.REVERIFY_OUTCOME_ELIGIBLE]: 'ELIGIBLE',
  [RO.REVERIFY_OUTCOME_NEEDS_REVIEW]: 'NEEDS_REVIEW',
  [RO.REVERIFY_OUTCOME_INELIGIBLE]: 'INELIGIBLE',
  [RO.REVERIFY_OUTCOME_NO_PERSONAL_INFO]: 'NO_PERSONAL_INFO',
};

/**
 * Proto3 defaults mean "none": an empty step and organization 0 become null. An outcome the contract does not
 * name (UNSPECIFIED, a newer value) throws, so the item is retried and in the end FAILED, never misreported.
 */
export function reverifyAnswerOf(reply: verificationV1.ReverifyInstantMatchResponse): ReverifyAnswer {
  const outcome = OUTCOMES[reply.outcome];
  if (!outcome) throw new Error(`unknown reverify outcome ${reply.outcome}`);
  return {
    outcome,
    errorIds: reply.errorIds,
    currentStep: reply.currentStep || null,
    organizationId: reply.organizationId || null,
  };
}

const isNotFound = (err: unknown) => isDomainError(err) && err.kind === 'notFound';

/** NOT_FOUND of the dependency is an answer here (undefined), not a failure. */
async function orUndefined<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export function verificationPort(
  client: GrpcClient<typeof verificationV1.VerificationServiceService>,
  streamDeadlineMs: number,
): VerificationPort {
  const calling = <T>(call: () => Promise<T>) =>
    callDependency('verification', call, { forwardOwnErrors: true });
  return {
    async personalInfo(accountId, verificationIds) {
      const rows = new Map<string, PersonalInfo>();
      if (verificationIds.length === 0) return rows;
      await calling(async () => {
        const stream = client.serverStream(
          'streamPersonalInfo',
          { accountId, verificationIds: [...verificationIds] },
          { deadlineMs: streamDeadlineMs },
        );
        for await (const row of stream) rows.set(row.verificationId, personalInfoOf(row));
      });
      return rows;
    },
    async reverify(accountId, programId, verificationId) {
      const reply = await orUndefined(() =>
        calling(() => client.unary('reverifyInstantMatch', { accountId, programId, verificationId })),
      );
      return reply && reverifyAnswerOf(reply);
    },
    async locate(key) {
      const request: verificationV1.LocateVerificationRequest =
        'verificationId' in key
          ? { key: { $case: 'verificationId', verificationId: key.verificationId } }
          : {
              key: { $case: 'tracking', tracking: { accountId: key.accountId, trackingId: key.trackingId } },
            };
      const reply = await orUndefined(() => calling(() => client.unary('locateVerification', request)));
      return (
        reply && {
          verificationId: reply.verificationId,
          accountId: reply.accountId,
          programId: reply.programId,
        }
      );
    },
  };
}

export function programsPort(client: GrpcClient<typeof programsV1.ProgramsServiceService>): ProgramsPort {
  return {
    async isProgramOf(accountId, programId) {
      const reply = await orUndefined(() =>
        callDependency('programs', () => client.unary('getProgram', { programId, accountId }), {
          forwardOwnErrors: true,
        }),
      );
      return reply?.program?.accountId === accountId;
    },
  };
}
