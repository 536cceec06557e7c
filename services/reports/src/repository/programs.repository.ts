import type { Knex, Transaction } from '@eligo/runtime';

type Db = Knex | Transaction;

/** Programs as the reports service knows them from ProgramCreated / ProgramUpdated: owner and name. */
export async function recordProgram(
  db: Db,
  schema: string,
  p: { programId: string; accountId: string; name: string },
): Promise<void> {
  await db.raw(
    `insert into ??.programs (program_id, account_id, name) values (?, ?, ?)
     on conflict (program_id) do update set account_id = excluded.account_id, name = excluded.name`,
    [schema, p.programId, p.accountId, p.name],
  );
}

/** Which of the ids are programs of the account, as far as the projection knows. */
export async function knownProgramsOf(
  db: Db,
  schema: string,
  accountId: string,
  programIds: readonly string[],
): Promise<Set<string>> {
  if (programIds.length === 0) return new Set();
  const rows: { program_id: string }[] = await db
    .withSchema(schema)
    .table('programs')
    .where('account_id', accountId)
    .whereIn('program_id', programIds)
    .select('program_id');
  return new Set(rows.map((r) => r.program_id));
}
