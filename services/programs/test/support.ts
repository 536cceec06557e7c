import {
  recordTopic,
  startServiceUnderTest,
  waitFor,
  type ServiceUnderTest,
  type TopicRecorder,
} from '@eligo/local-infra';
import { programsProgramV1, programsV1 } from '@eligo/proto';
import {
  createDb,
  createClient,
  decodeGrpcError,
  type DecodedGrpcError,
  type GrpcClient,
  type Knex,
} from '@eligo/runtime';
import { definition } from '../src';
import { programsTopic } from '../src/events/topics';

export { waitFor };
export type ProgramsClient = GrpcClient<typeof programsV1.ProgramsServiceService>;
export const { ProgramMode, OfferType, WebhookNotification } = programsProgramV1;
export const { TokenRole } = programsV1;

export interface Harness {
  sut: ServiceUnderTest;
  client: ProgramsClient;
  /** A pool on the service's database, for assertions on stored rows (queries name the schema). */
  db: Knex;
  stop(): Promise<void>;
}

/** The programs module on its own, on a fresh database, reached through its real gRPC API. */
export async function startPrograms(env: Record<string, string> = {}): Promise<Harness> {
  const sut = await startServiceUnderTest({ modules: { programs: definition }, targets: ['programs'], env });
  const client = createClient(programsV1.ProgramsServiceClient, sut.grpcAddress, {
    deadlineMs: 20_000,
    breaker: false,
  });
  const db = createDb({
    url: sut.databaseUrl,
    schema: 'programs',
    poolMax: 4,
    applicationName: 'programs-it',
  });
  return {
    sut,
    client,
    db,
    async stop() {
      client.close();
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

export async function newAccount(client: ProgramsClient, name = 'Acme'): Promise<string> {
  const { account } = await client.unary('createAccount', { name });
  return account!.accountId;
}

/** A minimal valid program; `overrides` go on top. */
export function programDraft(
  accountId: string,
  overrides: Partial<programsProgramV1.Program> = {},
): programsProgramV1.Program {
  return programsProgramV1.Program.create({
    accountId,
    name: 'Spring offer',
    segment: 'student',
    ...overrides,
  });
}

export async function newProgram(
  client: ProgramsClient,
  accountId: string,
  overrides: Partial<programsProgramV1.Program> = {},
): Promise<programsProgramV1.Program> {
  const { program } = await client.unary('createProgram', { program: programDraft(accountId, overrides) });
  return program!;
}

/** Decoded outbox rows (what the relay publishes), for "exactly this event / no event" assertions. */
export async function outboxEvents(db: Knex, key: string): Promise<{ type: string; payload: Buffer }[]> {
  const rows = (await db
    .withSchema('programs')
    .table('outbox')
    .where({ key })
    .orderBy('id')
    .select('event_type', 'payload')) as { event_type: string; payload: Buffer }[];
  return rows.map((r) => ({ type: r.event_type, payload: r.payload }));
}

/** Everything published on the programs topic (messages picked by key: the topic is shared by the run). */
export const subscribeProgramsTopic = (): Promise<TopicRecorder> => recordTopic(programsTopic);

/** A stored row as Postgres prints it (bytea as hex), to assert that no secret or PII is in it. */
export async function rowText(db: Knex, table: string, id: string): Promise<string> {
  const result = await db.raw<{ rows: { text: string }[] }>(
    `select t::text as text from programs.?? t where id = ?`,
    [table, id],
  );
  const text = result.rows[0]?.text;
  if (text === undefined) throw new Error(`no ${table} row ${id}`);
  return text;
}
