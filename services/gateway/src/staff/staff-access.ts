import { conflict, createFieldCipher, invalidArgument, notFound, type Knex } from '@eligo/runtime';
import { newId } from '@eligo/vocabulary';
import type { Logger } from 'pino';
import type { StaffPrincipal, StaffRole } from '../auth/principal';
import { afterFailure, cleared, isLocked, type LockoutSettings } from './lockout';
import { dummyPasswordHash, generatePassword, hashPassword, verifyPassword } from './password';
import { csrfKeyOf, csrfTokenOf, newSessionId, sessionIdHash } from './session-secrets';
import { staffTables, type AuditFilter, type AuditInsert, type AuditRow, type StaffUserRow } from './store';

/**
 * Staff identities of the admin API (docs/operations.md, "Staff identities"): named members with a role, a
 * password, sessions for the console and the audit log of what the admin API did for whom. The routes are
 * routes/admin/staff.ts, routes/admin/audit.ts and routes/console-session.ts; the admin router's
 * authentication (auth/middleware.ts) resolves sessions here.
 */
export interface StaffSettings extends LockoutSettings {
  /** Absolute lifetime of a session (ELIGO_GATEWAY_STAFF_SESSION_LIFETIME_MS). */
  sessionLifetimeMs: number;
  /** A session not used for this long ends (ELIGO_GATEWAY_STAFF_SESSION_IDLE_MS). */
  sessionIdleMs: number;
}

/** A staff member as the admin API shows them: the email and name decrypted, never the password hash. */
export interface StaffUser {
  staffId: string;
  email: string;
  name: string;
  role: StaffRole;
  disabledAt: Date | null;
  lockedUntil: Date | null;
  created: Date;
  updated: Date;
}

export interface StaffPage {
  staff: StaffUser[];
  nextCursor: string | null;
}

export interface AuditEntry {
  id: string;
  at: Date;
  actorKind: 'operator' | 'staff';
  actorId: string | null;
  action: string;
  method: string;
  route: string;
  targets: Record<string, string>;
  status: number;
}

export interface AuditPage {
  entries: AuditEntry[];
  nextCursor: string | null;
}

export type SignInOutcome =
  | {
      ok: true;
      principal: StaffPrincipal;
      name: string;
      /** The cookie's value: shown to the browser once, stored only as a hash. */
      sessionId: string;
      expiresAt: Date;
    }
  /** Refused; `staffId` when the email named someone (for the audit log, never for the answer). */
  | { ok: false; staffId?: string };

export interface StaffAccess {
  readonly settings: StaffSettings;
  createUser(input: {
    email: string;
    name: string;
    role: StaffRole;
  }): Promise<{ user: StaffUser; password: string }>;
  listUsers(page: { limit: number; cursor?: string }): Promise<StaffPage>;
  getUser(staffId: string): Promise<StaffUser>;
  /** A role change applies to the member's next request; disabling ends every session of theirs. */
  updateUser(staffId: string, change: { role?: StaffRole; disabled?: boolean }): Promise<StaffUser>;
  /** A new generated password; ends every session, clears the lockout. */
  resetPassword(staffId: string): Promise<{ user: StaffUser; password: string }>;
  signIn(email: string, password: string): Promise<SignInOutcome>;
  /**
   * A session for the member of this email, whose identity the operator's OpenID provider vouched for (staff
   * OIDC sign-in): refused for an unknown or disabled member.
   */
  signInVerified(email: string): Promise<SignInOutcome>;
  /** The principal of a live session (its idle end pushed on), or undefined. */
  session(sessionId: string): Promise<StaffPrincipal | undefined>;
  /** Ends a session; the staff id it belonged to, if it was one. */
  signOut(sessionId: string): Promise<string | undefined>;
  /** Writes an audit entry; a failure is logged, never thrown (the call it records has happened). */
  record(entry: Omit<AuditInsert, 'at'>): Promise<void>;
  listAudit(filter: AuditFilter, page: { limit: number; cursor?: string }): Promise<AuditPage>;
  /** Every entry of the filter, oldest first, read in batches (the NDJSON export). */
  exportAudit(filter: AuditFilter): AsyncIterable<AuditEntry>;
  /** Deletes ended sessions, a batch at a time; true when a full batch went. */
  purgeSessions(batch: number): Promise<boolean>;
}

export interface StaffAccessOptions {
  db: Knex;
  schema: string;
  encryptionKey: Buffer;
  settings: StaffSettings;
  logger: Logger;
  /** The clock (tests pass a fake one). */
  now?: () => Date;
}

const EXPORT_BATCH = 1000;

/** How an email is compared: trimmed, NFC, lower case. */
export function normalizedEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

export function createStaffAccess(options: StaffAccessOptions): StaffAccess {
  const { settings, logger } = options;
  const now = options.now ?? (() => new Date());
  const tables = staffTables(options.db, options.schema);
  const emails = createFieldCipher(options.encryptionKey, 'gateway.staff-email');
  const names = createFieldCipher(options.encryptionKey, 'gateway.staff-name');
  const csrfKey = csrfKeyOf(options.encryptionKey);
  // Computed once, at once (off the event loop): a sign-in with an unknown email is checked against it, so
  // even the first such sign-in takes as long as a wrong password.
  const dummy = dummyPasswordHash();

  const userOf = (row: StaffUserRow): StaffUser => ({
    staffId: row.id,
    email: emails.decrypt(row.email_enc, row.id),
    name: names.decrypt(row.name_enc, row.id),
    role: row.role,
    disabledAt: row.disabled_at,
    // A lock that has run out is no lock.
    lockedUntil:
      row.locked_until !== null && row.locked_until.getTime() > now().getTime() ? row.locked_until : null,
    created: row.created_at,
    updated: row.updated_at,
  });

  const noStaff = () => notFound('Staff member not found');

  /** A new session of the member, in the transaction that decided the sign-in. */
  async function openSession(trx: Knex.Transaction, member: StaffUserRow, at: Date): Promise<SignInOutcome> {
    const sessionId = newSessionId();
    const expiresAt = new Date(at.getTime() + settings.sessionLifetimeMs);
    await trx
      .withSchema(options.schema)
      .table('staff_sessions')
      .insert({
        id_hash: sessionIdHash(sessionId),
        staff_id: member.id,
        created_at: at,
        expires_at: expiresAt,
        idle_expires_at: new Date(Math.min(expiresAt.getTime(), at.getTime() + settings.sessionIdleMs)),
      });
    return {
      ok: true,
      principal: principalOf(member.id, member.role, sessionId),
      name: names.decrypt(member.name_enc, member.id),
      sessionId,
      expiresAt,
    };
  }

  async function changeUser(
    staffId: string,
    change: (row: StaffUserRow, at: Date) => Partial<StaffUserRow> | Promise<Partial<StaffUserRow>>,
    endSessions: (row: StaffUserRow) => boolean,
  ): Promise<StaffUser> {
    return tables.db.transaction(async (trx) => {
      const row = await tables.userById(staffId, trx, true);
      if (!row) throw noStaff();
      const at = now();
      const updated = await tables.updateUser(trx, staffId, { ...(await change(row, at)), updated_at: at });
      if (endSessions(updated)) await tables.deleteSessionsOf(trx, staffId);
      return userOf(updated);
    });
  }

  const principalOf = (staffId: string, role: StaffRole, sessionId: string): StaffPrincipal => ({
    kind: 'staff',
    staffId,
    role,
    csrfToken: csrfTokenOf(csrfKey, sessionId),
  });

  const refuse = (staffId?: string): SignInOutcome =>
    staffId === undefined ? { ok: false } : { ok: false, staffId };

  return {
    settings,

    async createUser({ email, name, role }) {
      const staffId = newId();
      const password = generatePassword();
      const at = now();
      const normalized = normalizedEmail(email);
      const inserted = await tables.insertUser({
        id: staffId,
        email_hash: emails.lookupHash(normalized),
        email_enc: emails.encrypt(normalized, staffId),
        name_enc: names.encrypt(name.trim(), staffId),
        role,
        password_hash: await hashPassword(password),
        failed_attempts: 0,
        locked_until: null,
        disabled_at: null,
        created_at: at,
        updated_at: at,
      });
      if (!inserted) throw conflict('A staff member with this email exists');
      const user = await tables.userById(staffId);
      return { user: userOf(user!), password };
    },

    async listUsers({ limit, cursor }) {
      const after = cursor === undefined ? undefined : readUserCursor(cursor);
      const rows = await tables.userPage(limit + 1, after);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        staff: page.map(userOf),
        nextCursor: rows.length > limit && last ? userCursor(last) : null,
      };
    },

    async getUser(staffId) {
      const row = await tables.userById(staffId);
      if (!row) throw noStaff();
      return userOf(row);
    },

    updateUser(staffId, { role, disabled }) {
      return changeUser(
        staffId,
        (row, at) => ({
          ...(role !== undefined ? { role } : {}),
          ...(disabled === true ? { disabled_at: row.disabled_at ?? at } : {}),
          ...(disabled === false ? { disabled_at: null } : {}),
        }),
        (updated) => updated.disabled_at !== null,
      );
    },

    async resetPassword(staffId) {
      const password = generatePassword();
      const hash = await hashPassword(password);
      const user = await changeUser(
        staffId,
        () => {
          const state = cleared();
          return {
            password_hash: hash,
            failed_attempts: state.failedAttempts,
            locked_until: state.lockedUntil,
          };
        },
        () => true,
      );
      return { user, password };
    },

    async signIn(email, password) {
      const row = await tables.userByEmailHash(emails.lookupHash(normalizedEmail(email)));
      if (!row) {
        // The same work as a wrong password, so that timing does not tell whether the email is known.
        await verifyPassword(password, await dummy);
        return refuse();
      }
      const matches = await verifyPassword(password, row.password_hash);
      // The decision is taken again on the row as it is now, under its lock: concurrent attempts each count,
      // and a lock or a disabling that happened meanwhile wins.
      return tables.db.transaction(async (trx) => {
        const current = await tables.userById(row.id, trx, true);
        if (!current) return refuse();
        const at = now();
        const state = { failedAttempts: current.failed_attempts, lockedUntil: current.locked_until };
        const samePassword = current.password_hash === row.password_hash;
        if (!matches || !samePassword || isLocked(state, at) || current.disabled_at !== null) {
          if (!matches && current.disabled_at === null) {
            const next = afterFailure(state, at, settings);
            if (next !== state)
              await tables.updateUser(trx, current.id, {
                failed_attempts: next.failedAttempts,
                locked_until: next.lockedUntil,
              });
          }
          return refuse(current.id);
        }
        if (state.failedAttempts !== 0 || state.lockedUntil !== null)
          await tables.updateUser(trx, current.id, { failed_attempts: 0, locked_until: null });
        return openSession(trx, current, at);
      });
    },

    async signInVerified(email) {
      const row = await tables.userByEmailHash(emails.lookupHash(normalizedEmail(email)));
      if (!row) return refuse();
      return tables.db.transaction(async (trx) => {
        const current = await tables.userById(row.id, trx, true);
        // A disabled member is refused; a lock is not: it stops password guesses, and no password was used.
        if (!current || current.disabled_at !== null) return refuse(row.id);
        return openSession(trx, current, now());
      });
    },

    async session(sessionId) {
      const at = now();
      const live = await tables.touchSession(
        sessionIdHash(sessionId),
        at,
        new Date(at.getTime() + settings.sessionIdleMs),
      );
      return live ? principalOf(live.staff_id, live.role, sessionId) : undefined;
    },

    signOut: (sessionId) => tables.deleteSession(sessionIdHash(sessionId)),

    async record(entry) {
      try {
        await tables.insertAudit({ ...entry, at: now() });
      } catch (err) {
        logger.error({ err, action: entry.action, status: entry.status }, 'audit entry not written');
      }
    },

    async listAudit(filter, { limit, cursor }) {
      const beforeId = cursor === undefined ? undefined : readAuditCursor(cursor);
      const rows = await tables.auditPage(filter, limit + 1, beforeId);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        entries: page.map(auditEntryOf),
        nextCursor: rows.length > limit && last ? auditCursor(last.id) : null,
      };
    },

    async *exportAudit(filter) {
      let afterId: string | undefined;
      for (;;) {
        const rows = await tables.auditBatch(filter, EXPORT_BATCH, afterId);
        for (const row of rows) yield auditEntryOf(row);
        if (rows.length < EXPORT_BATCH) return;
        afterId = rows[rows.length - 1]!.id;
      }
    },

    purgeSessions: (batch) => tables.purgeSessions(now(), batch),
  };
}

function auditEntryOf(row: AuditRow): AuditEntry {
  return {
    id: String(row.id),
    at: row.at,
    actorKind: row.actor_kind,
    actorId: row.actor_id,
    action: row.action,
    method: row.method,
    route: row.route,
    targets: row.targets,
    status: row.status,
  };
}

/** Page cursors are opaque to clients: base64url of what the next page starts after. */
function userCursor(row: StaffUserRow): string {
  return Buffer.from(JSON.stringify([row.created_at.getTime(), row.id])).toString('base64url');
}

function readUserCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [ms, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof ms === 'number' &&
      Number.isSafeInteger(ms) &&
      typeof id === 'string' &&
      /^[0-9a-f]{24}$/.test(id)
    )
      return { createdAt: new Date(ms), id };
  } catch {
    // answered below
  }
  throw invalidCursor();
}

function auditCursor(id: string): string {
  return Buffer.from(`audit:${id}`).toString('base64url');
}

function readAuditCursor(cursor: string): string {
  const match = /^audit:([1-9]\d{0,18})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalidCursor();
  return match[1]!;
}

const invalidCursor = () =>
  invalidArgument('query.cursor is not a cursor this list gave (pass nextCursor as it came)', {
    errorIds: ['invalidRequest'],
  });
