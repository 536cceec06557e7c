import { organizationsV1, type programsProgramV1, type programsV1 } from '@eligo/proto';
import { decodeGrpcError, type GrpcClient } from '@eligo/runtime';

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

export function programsPort(client: GrpcClient<typeof programsV1.ProgramsServiceService>): ProgramsPort {
  return {
    async getProgram(programId) {
      try {
        // An empty account id is a service call: no tenant check.
        return (await client.unary('getProgram', { programId, accountId: '' })).program;
      } catch (err) {
        if (isOwnNotFound(err)) return undefined;
        throw err;
      }
    },
    async claimRewardCode(programId, verificationId) {
      return (await client.unary('claimRewardCode', { programId, verificationId })).rewardCode;
    },
  };
}

export function organizationsPort(
  client: GrpcClient<typeof organizationsV1.OrganizationsServiceService>,
): OrganizationsPort {
  return {
    async check(programId, organization) {
      const reply = await client.unary('checkEligibility', {
        programId,
        organizationId: organization.id,
        organizationName: organization.id > 0 ? '' : organization.name,
      });
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
        return (await client.unary('getOrganization', { organizationId })).organization?.loginUrl ?? '';
      } catch (err) {
        if (isOwnNotFound(err)) return '';
        throw err;
      }
    },
  };
}
