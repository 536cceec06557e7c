import {
  recordTopic,
  startServiceUnderTest,
  waitFor,
  type ServiceUnderTest,
  type TopicRecorder,
} from '@eligo/local-infra';
import { definition as programsDefinition } from '@eligo/programs';
import { organizationsOrganizationV1, organizationsV1, programsProgramV1, programsV1 } from '@eligo/proto';
import {
  createClient,
  createDb,
  decodeGrpcError,
  type DecodedGrpcError,
  type GrpcClient,
  type Knex,
} from '@eligo/runtime';
import { definition } from '../src';
import { organizationsTopic } from '../src/events/topics';

export { waitFor };
export type OrganizationsClient = GrpcClient<typeof organizationsV1.OrganizationsServiceService>;
export type ProgramsClient = GrpcClient<typeof programsV1.ProgramsServiceService>;
export type Organization = organizationsOrganizationV1.Organization;
export const { AddSchoolRequestStatus } = organizationsOrganizationV1;
export const { OrganizationKind, Eligibility } = organizationsV1;

export interface Harness {
  sut: ServiceUnderTest;
  client: OrganizationsClient;
  programs: ProgramsClient;
  /** A pool on the service's schema (search_path organizations), for assertions on stored rows. */
  db: Knex;
  stop(): Promise<void>;
}

/**
 * The organizations module with the programs module it reads rules from, on a fresh database, reached through
 * the real gRPC API. The catalog starts empty unless the test asks for the seed; programs are read uncached
 * so that a test may change a program and search again at once.
 */
export async function startOrganizations(env: Record<string, string> = {}): Promise<Harness> {
  const sut = await startServiceUnderTest({
    modules: { programs: programsDefinition, organizations: definition },
    targets: ['programs', 'organizations'],
    env: { ELIGO_ORGANIZATIONS_SEED: 'none', ELIGO_ORGANIZATIONS_PROGRAM_CACHE_MS: '0', ...env },
  });
  const options = { deadlineMs: 20_000, breaker: false } as const;
  const client = createClient(organizationsV1.OrganizationsServiceClient, sut.grpcAddress, options);
  const programs = createClient(programsV1.ProgramsServiceClient, sut.grpcAddress, options);
  const db = createDb({
    url: sut.databaseUrl,
    schema: 'organizations',
    poolMax: 4,
    applicationName: 'org-it',
  });
  return {
    sut,
    client,
    programs,
    db,
    async stop() {
      client.close();
      programs.close();
      await db.destroy();
      await sut.stop();
    },
  };
}

/** The decoded error of a call that must fail (the test fails if it succeeds). */
export async function failure(call: Promise<unknown>): Promise<DecodedGrpcError> {
  try {
    await call;
  } catch (err) {
    return decodeGrpcError(err);
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** A program of a new account; `overrides` (segment, countries, organizationRules...) go on top. */
export async function newProgram(
  programs: ProgramsClient,
  overrides: Partial<programsProgramV1.Program> = {},
): Promise<string> {
  const { account } = await programs.unary('createAccount', { name: 'Acme' });
  const { program } = await programs.unary('createProgram', {
    program: programsProgramV1.Program.create({
      accountId: account!.accountId,
      name: 'Offer',
      segment: 'student',
      ...overrides,
    }),
  });
  return program!.programId;
}

export function rules(r: Partial<programsProgramV1.OrganizationRules>): programsProgramV1.OrganizationRules {
  return { types: [], countries: [], includeIds: [], excludeIds: [], ...r };
}

export type Fixture = Partial<organizationsOrganizationV1.OrganizationInput> & { name: string };

/**
 * Imports organizations through ImportOrganizations (key from name and country unless given; UNIVERSITY in
 * US unless given) and returns them as stored, in the order given.
 */
export async function importFixtures(h: Harness, fixtures: readonly Fixture[]): Promise<Organization[]> {
  const rows = fixtures.map((f, i) => ({
    line: i + 1,
    organization: {
      externalKey: f.externalKey ?? `fixture:${f.name}:${f.country ?? 'US'}`,
      name: f.name,
      type: f.type ?? 'UNIVERSITY',
      country: f.country ?? 'US',
      domains: f.domains ?? [],
      city: f.city ?? '',
      state: f.state ?? '',
      loginUrl: f.loginUrl ?? '',
    },
  }));
  for (let i = 0; i < rows.length; i += 1000) {
    const result = await h.client.unary('importOrganizations', { rows: rows.slice(i, i + 1000) });
    if (result.rejected.length > 0) throw new Error(`fixtures rejected: ${JSON.stringify(result.rejected)}`);
  }
  const keys = rows.map((r) => r.organization.externalKey);
  const found = (await h.db
    .table('organizations')
    .whereIn('external_key', keys)
    .select('id', 'external_key')) as {
    id: string;
    external_key: string;
  }[];
  const idOf = new Map(found.map((r) => [r.external_key, Number(r.id)]));
  return Promise.all(
    keys.map(async (key) => {
      const { organization } = await h.client.unary('getOrganization', { organizationId: idOf.get(key)! });
      return organization!;
    }),
  );
}

/** Names of organizations, for order assertions. */
export const names = (orgs: readonly Organization[]) => orgs.map((o) => o.name);

/** Everything published on the organizations topic (messages picked by key: the topic is shared by the run). */
export const subscribeOrganizationsTopic = (): Promise<TopicRecorder> => recordTopic(organizationsTopic);
