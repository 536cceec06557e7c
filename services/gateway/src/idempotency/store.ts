import { assertSchemaName, type FieldCipher, type Knex, type SchemaMigration } from '@eligo/runtime';

/**
 * Idempotency-Key records (Stripe's convention on every REST v2 POST): the first answer to a key is kept
 * 24 h, so that a client retrying after a lost answer gets it again instead of causing a second effect.
 */
export const idempotencyMigration: SchemaMigration = {
  name: '001_idempotency_keys',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('idempotency_keys', (t) => {
      // SHA-256 of the caller's credential (or of nothing, for tokenless calls): keys are the caller's own.
      t.binary('scope').notNullable();
      t.text('key').notNullable();
      // SHA-256 of method, path and body: the same key with another request is refused.
      t.binary('fingerprint').notNullable();
      // Null while the first request runs; `locked_until` bounds how long a crashed one blocks its retries.
      t.integer('status');
      t.text('content_type');
      t.binary('body'); // the answer, encrypted: it may carry reward codes, secrets or personal data
      t.timestamp('locked_until', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.primary(['scope', 'key']);
      t.index(['expires_at']);
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).dropTableIfExists('idempotency_keys');
  },
};

export interface StoredAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/** What a request carrying a key may do: run (it holds the key now), or not, and why. */
export type Claim =
  { kind: 'run' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'mismatch' } | { kind: 'inProgress' };

export interface IdempotencyStore {
  claim(scope: Buffer, key: string, fingerprint: Buffer): Promise<Claim>;
  complete(scope: Buffer, key: string, answer: StoredAnswer): Promise<void>;
  /** The request still runs: its hold on the key lasts another lock period. */
  extend(scope: Buffer, key: string): Promise<void>;
  /** The request failed in a way a retry should redo (a 5xx): forget the key. */
  release(scope: Buffer, key: string): Promise<void>;
  /** Deletes expired records, a batch at a time; true when a full batch went (more may be left). */
  purgeExpired(batch: number): Promise<boolean>;
}

export interface IdempotencyStoreOptions {
  db: Knex;
  schema: string;
  cipher: FieldCipher;
  /** How long answers are kept (24 h). */
  retentionMs: number;
  /**
   * How long a request's hold on its key lasts unless renewed; a running request renews it every third of
   * that, so only a gateway that died lets a retry take the key over, and within one period.
   */
  lockMs: number;
}

export function createIdempotencyStore(o: IdempotencyStoreOptions): IdempotencyStore {
  assertSchemaName(o.schema);
  const schema = o.schema;
  const table = () => o.db.withSchema(schema).table('idempotency_keys');
  // The answer is bound to its key: a row copied under another key does not decrypt.
  const context = (scope: Buffer, key: string) => `${scope.toString('hex')}:${key}`;
  return {
    async claim(scope, key, fingerprint) {
      return o.db.transaction(async (trx) => {
        const now = Date.now();
        const fresh = {
          scope,
          key,
          fingerprint,
          status: null,
          content_type: null,
          body: null,
          locked_until: new Date(now + o.lockMs),
          expires_at: new Date(now + o.retentionMs),
        };
        const inserted = await trx
          .withSchema(schema)
          .table('idempotency_keys')
          .insert(fresh)
          .onConflict(['scope', 'key'])
          .ignore()
          .returning('key');
        if (inserted.length > 0) return { kind: 'run' } as const;
        const row = (await trx
          .withSchema(schema)
          .table('idempotency_keys')
          .where({ scope, key })
          .forUpdate()
          .first()) as
          | {
              fingerprint: Buffer;
              status: number | null;
              content_type: string | null;
              body: Buffer | null;
              locked_until: Date;
              expires_at: Date;
            }
          | undefined;
        // Deleted by a release in between, or expired: the key is free again.
        if (!row || row.expires_at.getTime() <= now) {
          await trx.withSchema(schema).table('idempotency_keys').where({ scope, key }).delete();
          await trx.withSchema(schema).table('idempotency_keys').insert(fresh);
          return { kind: 'run' } as const;
        }
        if (!row.fingerprint.equals(fingerprint)) return { kind: 'mismatch' } as const;
        if (row.status !== null && row.body) {
          const body = Buffer.from(o.cipher.decrypt(row.body, context(scope, key)), 'base64');
          return {
            kind: 'replay',
            answer: { status: row.status, contentType: row.content_type ?? '', body },
          };
        }
        if (row.locked_until.getTime() > now) return { kind: 'inProgress' } as const;
        // The first request's gateway died before answering: this retry takes the key over.
        await trx
          .withSchema(schema)
          .table('idempotency_keys')
          .where({ scope, key })
          .update({ locked_until: fresh.locked_until });
        return { kind: 'run' } as const;
      });
    },
    async complete(scope, key, answer) {
      await table()
        .where({ scope, key })
        .update({
          status: answer.status,
          content_type: answer.contentType,
          body: o.cipher.encrypt(answer.body.toString('base64'), context(scope, key)),
        });
    },
    async extend(scope, key) {
      await table()
        .where({ scope, key })
        .whereNull('status')
        .update({ locked_until: new Date(Date.now() + o.lockMs) });
    },
    async release(scope, key) {
      await table().where({ scope, key }).whereNull('status').delete();
    },
    async purgeExpired(batch) {
      const deleted = await o.db.raw(
        `delete from ??.idempotency_keys where ctid in
           (select ctid from ??.idempotency_keys where expires_at < now() limit ?)`,
        [schema, schema, batch],
      );
      return (deleted.rowCount ?? 0) >= batch;
    },
  };
}
