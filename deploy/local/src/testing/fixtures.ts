import {
  organizationsV1,
  programsProgramV1,
  programsV1,
  verificationV1,
  verificationVerificationV1,
} from '@eligo/proto';
import type { GrpcClient } from '@eligo/runtime';

/**
 * What many suites do through the services' real gRPC APIs (programs, organizations, verification), with the
 * fields they do not vary filled in. Only the contracts (@eligo/proto) are used, never a service's code.
 */
export type ProgramsClient = GrpcClient<typeof programsV1.ProgramsServiceService>;
export type OrganizationsClient = GrpcClient<typeof organizationsV1.OrganizationsServiceService>;
export type VerificationClient = GrpcClient<typeof verificationV1.VerificationServiceService>;
export type Program = programsProgramV1.Program;
export type Subject = verificationVerificationV1.Subject;
export type VerificationResponse = verificationVerificationV1.VerificationResponse;

/**
 * A program created through the programs API: named "Offer", student segment, unless `overrides` say
 * otherwise; of a new account (named `accountName`, "Acme" by default) unless `accountId` is given.
 */
export async function createTestProgram(
  programs: ProgramsClient,
  overrides: Partial<Program> = {},
  account: { accountId?: string; accountName?: string } = {},
): Promise<Program> {
  const accountId =
    account.accountId ??
    (await programs.unary('createAccount', { name: account.accountName ?? 'Acme' })).account!.accountId;
  const { program } = await programs.unary('createProgram', {
    program: programsProgramV1.Program.create({ accountId, name: 'Offer', segment: 'student', ...overrides }),
  });
  return program!;
}

/**
 * Imports one catalog organization (a US university unless told otherwise) and returns its id, read back
 * through CheckEligibility for `programId` (the import reply carries counts, not ids).
 */
export async function importOrganization(
  h: { organizations: OrganizationsClient },
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

/** Jane Doe, born 2000-01-31, jane.doe@example.com; `extra` goes on top. */
export const testSubject = (extra: Partial<Subject> = {}): Subject =>
  verificationVerificationV1.Subject.create({
    firstName: 'Jane',
    lastName: 'Doe',
    birthDate: '2000-01-31',
    email: 'jane.doe@example.com',
    ...extra,
  });

/**
 * StartVerification and SubmitPersonalInfo with the fields a test does not vary left empty (an empty request
 * id: no retry key). Takes the client lazily: suites build it in beforeAll.
 */
export function verificationCalls(client: () => VerificationClient) {
  return {
    async start(
      programId: string,
      options: {
        trackingId?: string;
        requestId?: string;
        metadata?: Record<string, string>;
        locale?: string;
      } = {},
    ): Promise<VerificationResponse> {
      const { verification } = await client().unary('startVerification', {
        programId,
        trackingId: options.trackingId ?? '',
        requestId: options.requestId ?? '',
        metadata: options.metadata ?? {},
        locale: options.locale ?? '',
      });
      return verification!;
    },
    async submit(
      verificationId: string,
      step: string,
      subject: Subject = testSubject(),
      requestId = '',
    ): Promise<VerificationResponse> {
      const { verification } = await client().unary('submitPersonalInfo', {
        verificationId,
        programId: '',
        trackingId: '',
        step,
        input: { $case: 'subject', subject },
        requestId,
      });
      return verification!;
    },
  };
}
