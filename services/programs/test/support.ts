import {
  failure,
  recordTopic,
  startModules,
  type ProgramsClient,
  type TopicRecorder,
} from '@eligo/local-infra';
import { programsProgramV1, programsV1 } from '@eligo/proto';
import type { Knex } from '@eligo/runtime';
import { definition } from '../src';
import { programsTopic } from '../src/events/topics';

export { failure };
export const { ProgramMode, OfferType, WebhookNotification } = programsProgramV1;
export const { TokenRole } = programsV1;

/** The programs module on its own, on a fresh database, reached through its real gRPC API. */
export async function startPrograms(env: Record<string, string> = {}) {
  const sut = await startModules('programs', { modules: { programs: definition }, env });
  return {
    sut,
    client: sut.client(programsV1.ProgramsServiceClient),
    db: sut.db('programs'),
    stop: sut.stop,
  };
}
export type Harness = Awaited<ReturnType<typeof startPrograms>>;

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
