import type { SchemaMigration } from '@eligo/runtime';

/**
 * LocateVerification by tracking id: the most recent verification of an account with it. The index of 001
 * leads with the program, which such a lookup does not know.
 */
export const accountTrackingIndex: SchemaMigration = {
  name: '004_account_tracking_index',
  async up(knex, schema) {
    await knex.raw(
      `create index verifications_account_tracking_idx on ??.verifications
        (account_id, tracking_id, created_at desc) where tracking_id is not null`,
      [schema],
    );
  },
};
