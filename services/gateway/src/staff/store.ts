import type { Knex, SchemaMigration } from '@eligo/runtime';
import type { StaffRole } from '../auth/principal';

/**
 * The staff tables of the gateway's schema (docs/operations.md, "Staff identities"): who may use the admin
 * API besides the operator token, their sessions and the audit log of the admin API. Knex queries only; the
 * use cases are staff/staff-access.ts.
 */
export const staffMigration: SchemaMigration = {
  name: '003_staff',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('staff_users', (t) => {
      t.string('id', 24).primary();
      // HMAC-SHA256 of the normalised email under a key derived for it: the lookup at sign-in, and uniqueness.
      t.binary('email_hash').notNullable().unique();
      // AES-256-GCM under ELIGO_ENCRYPTION_KEY, bound to the row's id.
      t.binary('email_enc').notNullable();
      t.binary('name_enc').notNullable();
      t.text('role').notNullable();
      // scrypt$N$r$p$salt$hash (staff/password.ts).
      t.text('password_hash').notNullable();
      t.integer('failed_attempts').notNullable().defaultTo(0);
      t.timestamp('locked_until', { useTz: true });
      t.timestamp('disabled_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['created_at', 'id']);
    });
    await knex.raw(
      `alter table ??.staff_users add constraint staff_users_role check (role in ('reviewer', 'support', 'admin'))`,
      [schema],
    );
    await knex.schema.withSchema(schema).createTable('staff_sessions', (t) => {
      // SHA-256 of the session id; the id itself lives only in the browser's cookie.
      t.binary('id_hash').primary();
      t.string('staff_id', 24)
        .notNullable()
        .references('id')
        .inTable(`${schema}.staff_users`)
        .onDelete('CASCADE');
      t.timestamp('created_at', { useTz: true }).notNullable();
      // The absolute end (ELIGO_GATEWAY_STAFF_SESSION_LIFETIME_MS after sign-in) ...
      t.timestamp('expires_at', { useTz: true }).notNullable();
      // ... and the idle end, pushed on by every request (ELIGO_GATEWAY_STAFF_SESSION_IDLE_MS), never past it.
      t.timestamp('idle_expires_at', { useTz: true }).notNullable();
      t.index(['staff_id']);
      t.index(['expires_at']);
    });
    await knex.schema.withSchema(schema).createTable('staff_audit', (t) => {
      t.bigIncrements('id');
      t.timestamp('at', { useTz: true }).notNullable();
      t.text('actor_kind').notNullable();
      // The staff id; null for the operator token, and for a failed sign-in whose email names no one.
      t.string('actor_id', 24);
      // The operationId of the endpoint (createConsoleSession / deleteConsoleSession for the console).
      t.text('action').notNullable();
      t.text('method').notNullable();
      // The route template, never the path: `/rest/admin/v1/reviews/{reviewId}/decision`.
      t.text('route').notNullable();
      // The path parameters by name (ids): never a body, a query or personal data.
      t.jsonb('targets').notNullable().defaultTo('{}');
      t.integer('status').notNullable();
      t.index(['action', 'id']);
      t.index(['actor_id', 'id']);
      t.index(['at']);
    });
    await knex.raw(
      `alter table ??.staff_audit add constraint staff_audit_actor_kind check (actor_kind in ('operator', 'staff'))`,
      [schema],
    );
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).dropTableIfExists('staff_audit');
    await knex.schema.withSchema(schema).dropTableIfExists('staff_sessions');
    await knex.schema.withSchema(schema).dropTableIfExists('staff_users');
  },
};

export interface StaffUserRow {
  id: string;
  email_hash: Buffer;
  email_enc: Buffer;
  name_enc: Buffer;
  role: StaffRole;
  password_hash: string;
  failed_attempts: number;
  locked_until: Date | null;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface StaffSessionRow {
  id_hash: Buffer;
  staff_id: string;
  created_at: Date;
  expires_at: Date;
  idle_expires_at: Date;
}

export interface AuditRow {
  id: string;
  at: Date;
  actor_kind: 'operator' | 'staff';
  actor_id: string | null;
  action: string;
  method: string;
  route: string;
  targets: Record<string, string>;
  status: number;
}

export type AuditInsert = Omit<AuditRow, 'id'>;

/** What the audit lists and exports are narrowed to. */
export interface AuditFilter {
  /** A staff id, or `operator` for the operator token's entries. */
  actor?: string;
  action?: string;
  from?: Date;
  to?: Date;
}

const USER_COLUMNS = [
  'id',
  'email_hash',
  'email_enc',
  'name_enc',
  'role',
  'password_hash',
  'failed_attempts',
  'locked_until',
  'disabled_at',
  'created_at',
  'updated_at',
] as const;

export function staffTables(db: Knex, schema: string) {
  const users = (trx: Knex | Knex.Transaction = db) => trx.withSchema(schema).table('staff_users');
  const sessions = (trx: Knex | Knex.Transaction = db) => trx.withSchema(schema).table('staff_sessions');
  const audit = () => db.withSchema(schema).table('staff_audit');

  function filtered(query: Knex.QueryBuilder, filter: AuditFilter): Knex.QueryBuilder {
    if (filter.actor === 'operator') query.where({ actor_kind: 'operator' });
    else if (filter.actor !== undefined) query.where({ actor_kind: 'staff', actor_id: filter.actor });
    if (filter.action !== undefined) query.where({ action: filter.action });
    if (filter.from !== undefined) query.where('at', '>=', filter.from);
    if (filter.to !== undefined) query.where('at', '<', filter.to);
    return query;
  }

  return {
    db,

    async insertUser(row: StaffUserRow): Promise<boolean> {
      const inserted = await users().insert(row).onConflict('email_hash').ignore().returning('id');
      return inserted.length > 0;
    },

    async userById(id: string, trx?: Knex.Transaction, forUpdate = false): Promise<StaffUserRow | undefined> {
      const query = users(trx).select(USER_COLUMNS).where({ id });
      if (forUpdate) query.forUpdate();
      return (await query.first()) as StaffUserRow | undefined;
    },

    async userByEmailHash(emailHash: Buffer): Promise<StaffUserRow | undefined> {
      return (await users().select(USER_COLUMNS).where({ email_hash: emailHash }).first()) as
        StaffUserRow | undefined;
    },

    /** Newest first; `after` is the last row of the previous page. */
    async userPage(limit: number, after?: { createdAt: Date; id: string }): Promise<StaffUserRow[]> {
      const query = users()
        .select(USER_COLUMNS)
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ]);
      if (after) query.whereRaw('(created_at, id) < (?, ?)', [after.createdAt, after.id]);
      return (await query.limit(limit)) as StaffUserRow[];
    },

    async updateUser(
      trx: Knex.Transaction,
      id: string,
      fields: Partial<Omit<StaffUserRow, 'id' | 'email_hash' | 'created_at'>>,
    ): Promise<StaffUserRow> {
      const [row] = (await users(trx).where({ id }).update(fields).returning(USER_COLUMNS)) as StaffUserRow[];
      return row!;
    },

    async insertSession(row: StaffSessionRow): Promise<void> {
      await sessions().insert(row);
    },

    /**
     * The live session of that hash with its staff member's id and role, its idle end pushed to
     * `idleUntil` (never past its absolute end): one statement, so that a disabled member, an expired or an
     * idle session is refused as it is read.
     */
    async touchSession(
      idHash: Buffer,
      now: Date,
      idleUntil: Date,
    ): Promise<{ staff_id: string; role: StaffRole; expires_at: Date } | undefined> {
      const result = await db.raw(
        `update ??.staff_sessions s
            set idle_expires_at = least(s.expires_at, ?)
           from ??.staff_users u
          where s.id_hash = ? and u.id = s.staff_id and u.disabled_at is null
            and s.expires_at > ? and s.idle_expires_at > ?
      returning s.staff_id, u.role, s.expires_at`,
        [schema, idleUntil, schema, idHash, now, now],
      );
      return (result as { rows: { staff_id: string; role: StaffRole; expires_at: Date }[] }).rows[0];
    },

    /** Deletes one session; the staff id it belonged to, if it existed. */
    async deleteSession(idHash: Buffer): Promise<string | undefined> {
      const [row] = (await sessions().where({ id_hash: idHash }).delete().returning('staff_id')) as {
        staff_id: string;
      }[];
      return row?.staff_id;
    },

    async deleteSessionsOf(trx: Knex.Transaction, staffId: string): Promise<number> {
      return sessions(trx).where({ staff_id: staffId }).delete();
    },

    /** Deletes sessions past either end, a batch at a time; true when a full batch went. */
    async purgeSessions(now: Date, batch: number): Promise<boolean> {
      const deleted = await db.raw(
        `delete from ??.staff_sessions where id_hash in (
           select id_hash from ??.staff_sessions where expires_at <= ? or idle_expires_at <= ? limit ?)`,
        [schema, schema, now, now, batch],
      );
      return ((deleted as { rowCount?: number }).rowCount ?? 0) >= batch;
    },

    async insertAudit(entry: AuditInsert): Promise<void> {
      await audit().insert({ ...entry, targets: JSON.stringify(entry.targets) });
    },

    /** Newest first; `beforeId` is the last id of the previous page. */
    async auditPage(filter: AuditFilter, limit: number, beforeId?: string): Promise<AuditRow[]> {
      const query = filtered(audit().select('*'), filter).orderBy('id', 'desc').limit(limit);
      if (beforeId !== undefined) query.where('id', '<', beforeId);
      return (await query) as AuditRow[];
    },

    /** Oldest first, for the export; `afterId` is the last id of the previous batch. */
    async auditBatch(filter: AuditFilter, limit: number, afterId?: string): Promise<AuditRow[]> {
      const query = filtered(audit().select('*'), filter).orderBy('id', 'asc').limit(limit);
      if (afterId !== undefined) query.where('id', '>', afterId);
      return (await query) as AuditRow[];
    },
  };
}

export type StaffTables = ReturnType<typeof staffTables>;
