import type { SchemaMigration } from '@eligo/runtime';

/**
 * The staff console's lists (ListAccounts, ListAccessTokens, ListPrograms) page newest first by keyset on
 * (created_at desc, id desc), with a page token that carries created_at as a JavaScript Date (milliseconds).
 *
 * - created_at of accounts, access tokens and programs is kept to the millisecond, so that a position read
 *   back from a token is exactly a row's (with microseconds, rows of the same millisecond would be listed
 *   twice or skipped). Existing values are truncated, which changes nothing anyone saw: every reader already
 *   got them through a Date. New rows get now() truncated the same way (the column would round it, and a
 *   program's created_at would then be later than its updated_at).
 * - One index per list order: all accounts; an account's tokens; all programs, and those of one account, one
 *   segment or one mode. The account indexes replace the single-column account_id ones (same prefix, so they
 *   also serve the foreign-key lookups and the per-account counts). A name filter (ILIKE '%...%') is applied
 *   while walking these: a trigram index would need pg_trgm, which lives in the organizations service's schema
 *   of a shared database (an extension is installed once per database).
 */
const TABLES = ['accounts', 'access_tokens', 'programs'] as const;

const INDEXES: readonly [name: string, table: string, columns: string][] = [
  ['accounts_created_idx', 'accounts', 'created_at desc, id desc'],
  ['access_tokens_account_created_idx', 'access_tokens', 'account_id, created_at desc, id desc'],
  ['programs_created_idx', 'programs', 'created_at desc, id desc'],
  ['programs_account_created_idx', 'programs', 'account_id, created_at desc, id desc'],
  ['programs_segment_created_idx', 'programs', 'segment, created_at desc, id desc'],
  ['programs_mode_created_idx', 'programs', 'mode, created_at desc, id desc'],
];

/** The indexes of 001 that the account indexes above make redundant. */
const REPLACED: readonly [name: string, table: string, column: string][] = [
  ['access_tokens_account_id_idx', 'access_tokens', 'account_id'],
  ['programs_account_id_idx', 'programs', 'account_id'],
];

export const staffConsoleLists: SchemaMigration = {
  name: '007_staff_console_lists',
  async up(knex, schema) {
    for (const table of TABLES)
      await knex.raw(
        `alter table ??.?? alter column created_at type timestamptz(3) using date_trunc('milliseconds', created_at),
           alter column created_at set default date_trunc('milliseconds', now())`,
        [schema, table],
      );
    for (const [name, table, columns] of INDEXES)
      await knex.raw(`create index ?? on ??.?? (${columns})`, [name, schema, table]);
    for (const [name] of REPLACED) await knex.raw('drop index ??.??', [schema, name]);
  },
  async down(knex, schema) {
    for (const [name, table, column] of REPLACED)
      await knex.raw('create index ?? on ??.?? (??)', [name, schema, table, column]);
    for (const [name] of INDEXES) await knex.raw('drop index ??.??', [schema, name]);
    for (const table of TABLES)
      await knex.raw(
        'alter table ??.?? alter column created_at type timestamptz, alter column created_at set default now()',
        [schema, table],
      );
  },
};
