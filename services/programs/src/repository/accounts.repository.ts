import type { Db } from './db';

export interface AccountRecord {
  id: string;
  name: string;
  createdAt: Date;
}

interface AccountRow {
  id: string;
  name: string;
  created_at: Date;
}

export async function insertAccount(db: Db, id: string, name: string): Promise<AccountRecord> {
  const [row] = (await db.table('accounts').insert({ id, name }).returning('*')) as AccountRow[];
  return { id: row!.id, name: row!.name, createdAt: row!.created_at };
}

export async function accountExists(db: Db, id: string): Promise<boolean> {
  const row = await db.table('accounts').where({ id }).first('id');
  return row !== undefined;
}
