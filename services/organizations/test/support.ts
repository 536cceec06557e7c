import {
  createTestProgram,
  failure,
  recordTopic,
  startModules,
  waitFor,
  type ProgramsClient,
  type TopicRecorder,
} from '@eligo/local-infra';
import { organizationsOrganizationV1, organizationsV1, programsProgramV1, programsV1 } from '@eligo/proto';
import { definition } from '../src';
import { organizationsTopic } from '../src/events/topics';

export { failure, waitFor };
export type Organization = organizationsOrganizationV1.Organization;
export const { AddSchoolRequestStatus } = organizationsOrganizationV1;
export const { OrganizationKind, Eligibility } = organizationsV1;

/**
 * The organizations module with the programs module it reads rules from, on a fresh database, reached through
 * the real gRPC API. The catalog starts empty unless the test asks for the seed; programs are read uncached
 * so that a test may change a program and search again at once (MODULE_TEST_ENV).
 */
export async function startOrganizations(env: Record<string, string> = {}) {
  const sut = await startModules('organizations', { modules: { organizations: definition }, env });
  return {
    sut,
    client: sut.client(organizationsV1.OrganizationsServiceClient),
    programs: sut.client(programsV1.ProgramsServiceClient),
    db: sut.db('organizations'),
    stop: sut.stop,
  };
}
export type Harness = Awaited<ReturnType<typeof startOrganizations>>;

/** A program of a new account; `overrides` (segment, countries, organizationRules...) go on top. */
export const newProgram = async (
  programs: ProgramsClient,
  overrides: Partial<programsProgramV1.Program> = {},
): Promise<string> => (await createTestProgram(programs, overrides)).programId;

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
