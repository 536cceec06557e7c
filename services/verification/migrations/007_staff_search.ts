import type { SchemaMigration } from '@eligo/runtime';

/**
 * The staff search (SearchVerifications) lists verifications newest first by keyset on (created_at desc, id
 * desc), filtered by tracking id, by the person's email or by program. One index per filter, in that order, so
 * that a page reads only its own rows whatever the table's size:
 *
 * - by tracking id across programs: the indexes of 001 and 004 lead with the program or the account, which a
 *   search by tracking id alone does not know;
 * - by email: person_email_hash, the HMAC of the trimmed, lower-cased address (keyed from ELIGO_ENCRYPTION_KEY,
 *   purpose verification.person) that the person limit has used since 001. Every verification whose form
 *   reached the instant match already has it, so there is nothing to backfill; the only index on it (001) is
 *   the person limit's, per program and on successes only;
 * - by program: 001's program indexes are partial (tracking ids, successes).
 *
 * Plain CREATE INDEX, inside the migration's transaction: writes to verifications wait while an index is built
 * (docs/operations.md, "Verifications and the PII access log").
 */
const INDEXES: readonly [name: string, columns: string, where: string][] = [
  ['verifications_search_tracking_idx', 'tracking_id, created_at desc, id desc', 'tracking_id is not null'],
  [
    'verifications_search_email_idx',
    'person_email_hash, created_at desc, id desc',
    'person_email_hash is not null',
  ],
  ['verifications_search_program_idx', 'program_id, created_at desc, id desc', ''],
];

export const staffSearch: SchemaMigration = {
  name: '007_staff_search',
  async up(knex, schema) {
    for (const [name, columns, where] of INDEXES)
      await knex.raw(`create index ?? on ??.verifications (${columns})${where ? ` where ${where}` : ''}`, [
        name,
        schema,
      ]);
  },
  async down(knex, schema) {
    for (const [name] of INDEXES) await knex.raw('drop index ??.??', [schema, name]);
  },
};
