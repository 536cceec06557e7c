import type { SchemaMigration } from '@eligo/runtime';

/**
 * reward_codes.confirmed_at: when the verification service confirmed that the claim's verification succeeded,
 * so the code is kept for good. A claim without it may still be released: its verification's success may
 * never have committed. Claims made before this migration start unconfirmed; the first reconciliation
 * settles them (those of succeeded verifications are confirmed, the lost ones go back to their pool).
 */
export const rewardClaimConfirmation: SchemaMigration = {
  name: '004_reward_claim_confirmation',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).alterTable('reward_codes', (t) => {
      t.timestamp('confirmed_at', { useTz: true }).nullable();
      t.check('confirmed_at is null or claimed_by is not null', [], 'reward_codes_confirmed_claimed_check');
      // The reconciler pages through unconfirmed claims by id: a small index (claims settle within minutes).
      t.index(['id'], 'reward_codes_unconfirmed_idx', {
        predicate: knex.whereNotNull('claimed_by').whereNull('confirmed_at'),
      });
    });
  },
  async down(knex, schema) {
    // Dropping the column drops the check and the index on it.
    await knex.schema.withSchema(schema).alterTable('reward_codes', (t) => {
      t.dropColumn('confirmed_at');
    });
  },
};
