import type { programsV1, verificationV1 } from '@eligo/proto';
import { callDependency, isDomainError, type GrpcClient } from '@eligo/runtime';

export type PersonalInfo = verificationV1.StreamPersonalInfoResponse;
export type ReverifyAnswer = verificationV1.ReverifyInstantMatchResponse;

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
        for await (const row of stream) rows.set(row.verificationId, row);
      });
      return rows;
    },
    reverify: (accountId, programId, verificationId) =>
      orUndefined(() =>
        calling(() => client.unary('reverifyInstantMatch', { accountId, programId, verificationId })),
      ),
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
