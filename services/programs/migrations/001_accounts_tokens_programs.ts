import type { SchemaMigration } from '@eligo/runtime';

/**
 * Accounts, their access tokens, programs, reward-code pools and send-link requests. Every lookup path has
 * its index; secrets are stored as SHA-256 (tokens, client secrets) or encrypted (webhook secret,
 * send-link recipient), never in clear.
 */
export const accountsTokensPrograms: SchemaMigration = {
  name: '001_accounts_tokens_programs',
  async up(knex, schema) {
    // A schema builder accumulates statements: each table gets a fresh one, or awaiting it again re-runs all.
    const s = () => knex.schema.withSchema(schema);
    await s().createTable('accounts', (t) => {
      t.string('id', 24).primary();
      t.text('name').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });

    await s().createTable('access_tokens', (t) => {
      t.string('id', 24).primary();
      t.string('account_id', 24).notNullable().references('id').inTable(`${schema}.accounts`);
      t.text('name').notNullable();
      t.specificType('roles', 'text[]').notNullable().defaultTo('{}');
      // Authenticate looks a bearer token up by its hash; IssueOAuthToken a client by its id.
      t.binary('token_hash').notNullable().unique({ indexName: 'access_tokens_token_hash_key' });
      t.text('client_id').notNullable().unique({ indexName: 'access_tokens_client_id_key' });
      t.binary('client_secret_hash').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('revoked_at', { useTz: true }).nullable();
      t.index(['account_id'], 'access_tokens_account_id_idx');
    });

    await s().createTable('programs', (t) => {
      t.string('id', 24).primary();
      t.string('account_id', 24).notNullable().references('id').inTable(`${schema}.accounts`);
      t.text('name').notNullable();
      t.text('segment').notNullable();
      t.specificType('sub_segments', 'text[]').notNullable().defaultTo('{}');
      t.text('mode').notNullable().checkIn(['TEST', 'LIVE'], 'programs_mode_check');
      t.timestamp('start_date', { useTz: true }).nullable();
      t.timestamp('end_date', { useTz: true }).nullable();
      t.text('offer_type')
        .notNullable()
        .checkIn(['STATIC_CODE', 'REWARD_POOL', 'NO_CODE'], 'programs_offer_type_check');
      t.text('reward_code').nullable();
      t.text('redirect_url').nullable();
      t.text('consolation_reward_code').nullable();
      t.integer('min_age').nullable();
      t.integer('max_age').nullable();
      t.specificType('countries', 'text[]').notNullable().defaultTo('{}');
      // Nested settings the service reads and writes whole; validated by the domain before every write.
      t.jsonb('document_review').notNullable();
      t.jsonb('organization_rules').notNullable();
      t.jsonb('theme').notNullable();
      t.text('webhook_callback_uri').nullable();
      // AES-256-GCM (purpose programs.webhook-secret), bound to the program id.
      t.binary('webhook_secret').nullable();
      t.timestamp('webhook_created_at', { useTz: true }).nullable();
      t.integer('verification_limit_quantity').nullable();
      t.integer('verification_limit_days').nullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.index(['account_id'], 'programs_account_id_idx');
      t.check(
        '(webhook_callback_uri is null) = (webhook_secret is null) and ' +
          '(webhook_callback_uri is null) = (webhook_created_at is null)',
        [],
        'programs_webhook_complete_check',
      );
      t.check(
        '(verification_limit_quantity is null) = (verification_limit_days is null)',
        [],
        'programs_verification_limit_complete_check',
      );
    });

    await s().createTable('reward_codes', (t) => {
      t.bigIncrements('id');
      t.string('program_id', 24).notNullable().references('id').inTable(`${schema}.programs`);
      t.text('code').notNullable();
      t.text('claimed_by').nullable();
      t.timestamp('claimed_at', { useTz: true }).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      // ON CONFLICT target of AddRewardCodes: a code is in a pool once.
      t.unique(['program_id', 'code'], { indexName: 'reward_codes_program_code_key' });
      // Claims take the lowest unclaimed id and the pool size counts unclaimed rows: both read only this.
      t.index(['program_id', 'id'], 'reward_codes_unclaimed_idx', {
        predicate: knex.whereNull('claimed_by'),
      });
      // One code per verification, also when two claims for it race (the loser reads the winner's code).
      t.unique(['program_id', 'claimed_by'], {
        indexName: 'reward_codes_claimed_by_key',
        predicate: knex.whereNotNull('claimed_by'),
      });
    });

    await s().createTable('send_link_requests', (t) => {
      t.string('id', 24).primary();
      t.string('program_id', 24).notNullable().references('id').inTable(`${schema}.programs`);
      t.text('channel').notNullable().checkIn(['EMAIL', 'SMS'], 'send_link_requests_channel_check');
      // PII: AES-256-GCM (purpose programs.send-link-recipient), bound to the request id.
      t.binary('recipient').notNullable();
      t.text('tracking_id').notNullable().defaultTo('');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.index(['program_id', 'created_at'], 'send_link_requests_program_created_idx');
    });
  },
  async down(knex, schema) {
    for (const table of ['send_link_requests', 'reward_codes', 'programs', 'access_tokens', 'accounts'])
      await knex.schema.withSchema(schema).dropTableIfExists(table);
  },
};
