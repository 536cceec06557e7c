import { organizationsV1, type programsProgramV1, type programsV1 } from '@eligo/proto';
import { LRUCache } from 'lru-cache';
import { callDependency, decodeGrpcError, type GrpcClient } from '@eligo/runtime';

export type Program = programsProgramV1.Program;

/** The programs service as the flow needs it. */
export interface ProgramsPort {
  /** undefined when the programs service does not know the program. */
  getProgram(programId: string): Promise<Program | undefined>;
  /** The code of a live success: idempotent per verification (a retried claim returns the same code). */
  claimRewardCode(programId: string, verificationId: string): Promise<string>;
}

export type OrganizationCheck =
  | { eligibility: 'eligible'; organization: { id: number; name: string; loginUrl: string } }
  | { eligibility: 'ineligible' | 'unknown' };

/** The organizations service as the flow needs it. */
export interface OrganizationsPort {
  check(programId: string, organization: { id: number; name: string }): Promise<OrganizationCheck>;
  /** The login page of a catalog organization, '' when it has none or is unknown. */
  loginUrl(organizationId: number): Promise<string>;
}

/** Only the service's own NOT_FOUND means "no such thing"; a transport failure travels on as 503/504. */
function isOwnNotFound(err: unknown): boolean {
  const decoded = decodeGrpcError(err);
  return decoded.codeName === 'NOT_FOUND' && decoded.kind !== undefined;
}

const PROGRAM_CACHE_ENTRIES = 10_000;

/**
 * Both requests of a verification read its program, so programs are kept for `cacheMs` (0 = never): an edit
 * (dates, codes, limits) then applies within that time. Unknown programs are not kept, so that a program
 * created a moment ago is found at once.
 */
export function programsPort(
  client: GrpcClient<typeof programsV1.ProgramsServiceService>,
  cacheMs = 0,
): ProgramsPort {
  const cache =
    cacheMs > 0 ? new LRUCache<string, Program>({ max: PROGRAM_CACHE_ENTRIES, ttl: cacheMs }) : undefined;
  return {
    async getProgram(programId) {
      const cached = cache?.get(programId);
      if (cached) return cached;
      try {
        // An empty account id is a service call: no tenant check.
        const { program } = await callDependency('programs', () =>
          client.unary('getProgram', { programId, accountId: '' }),
        );
        if (program) cache?.set(programId, program);
        return program;
      } catch (err) {
        if (isOwnNotFound(err)) return undefined;
        throw err;
      }
    },
    async claimRewardCode(programId, verificationId) {
      const reply = await callDependency('programs', () =>
        client.unary('claimRewardCode', { programId, verificationId }),
      );
      return reply.rewardCode;
    },
  };
}

export function organizationsPort(
  client: GrpcClient<typeof organizationsV1.OrganizationsServiceService>,
): OrganizationsPort {
  return {
    async check(programId, organization) {
      const reply = await callDependency('organizations', () =>
        client.unary('checkEligibility', {
          programId,
          organizationId: organization.id,
          organizationName: organization.id > 0 ? '' : organization.name,
        }),
      );
      const { Eligibility } = organizationsV1;
      if (reply.eligibility === Eligibility.ELIGIBILITY_ELIGIBLE && reply.organization)
        return {
          eligibility: 'eligible',
          organization: {
            id: reply.organization.id,
            name: reply.organization.name,
            loginUrl: reply.organization.loginUrl,
          },
        };
      return {
        eligibility: reply.eligibility === Eligibility.ELIGIBILITY_INELIGIBLE ? 'ineligible' : 'unknown',
      };
    },
    async loginUrl(organizationId) {
      try {
        const reply = await callDependency('organizations', () =>
          client.unary('getOrganization', { organizationId }),
        );
        return reply.organization?.loginUrl ?? '';
      } catch (err) {
        if (isOwnNotFound(err)) return '';
        throw err;
      }
    },
  };
}
