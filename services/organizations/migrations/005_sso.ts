import type { SchemaMigration } from '@eligo/runtime';

/**
 * Single sign-on with an organization's OpenID provider (docs/operations.md, "Single sign-on with an
 * organization").
 *
 * organization_sso: one OpenID Connect client per organization. The client secret is encrypted (AES-256-GCM,
 * purpose organizations.sso-client-secret, bound to the organization id), null for a public client; the rule
 * is the SsoRule as JSON ({claims: [{claim, anyOf}], emailDomainInOrganization}).
 *
 * sso_sign_ons: sign-ons in progress, each found by the keyed HMAC of its state (the state itself is never
 * stored); the nonce and the PKCE verifier are encrypted (purpose organizations.sso-sign-on, bound to the
 * state's HMAC and the field). A finish deletes its row (single use); a start keeps the newest few of its
 * verification; the cleanup job deletes lapsed rows by expires_at. Removing an organization's SSO drops its
 * sign-ons with it.
 */
export const sso: SchemaMigration = {
  name: '005_sso',
  async up(knex, schema) {
    await knex.schema.withSchema(schema).createTable('organization_sso', (t) => {
      t.bigInteger('organization_id')
        .primary()
        .references('id')
        .inTable(`${schema}.organizations`)
        .onDelete('CASCADE');
      t.text('issuer').notNullable();
      t.text('client_id').notNullable();
      t.binary('client_secret_encrypted').nullable();
      t.specificType('scopes', 'text[]').notNullable();
      t.jsonb('rule').notNullable();
      t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.schema.withSchema(schema).createTable('sso_sign_ons', (t) => {
      t.binary('state_hash').primary();
      t.string('verification_id', 24).notNullable();
      t.bigInteger('organization_id')
        .notNullable()
        .references('organization_id')
        .inTable(`${schema}.organization_sso`)
        .onDelete('CASCADE');
      t.binary('nonce_encrypted').notNullable();
      t.binary('code_verifier_encrypted').notNullable();
      t.text('redirect_uri').notNullable();
      t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('expires_at', { useTz: true, precision: 3 }).notNullable();
      // The cleanup takes the oldest lapsed rows first, a bounded batch at a time.
      t.index(['expires_at'], 'sso_sign_ons_expires_at_idx');
      // Deleting an organization's SSO finds its sign-ons without a scan.
      t.index(['organization_id'], 'sso_sign_ons_organization_idx');
      // A start keeps only the newest few sign-ons of its verification.
      t.index(['verification_id', 'created_at'], 'sso_sign_ons_verification_idx');
    });
  },
  async down(knex, schema) {
    await knex.schema.withSchema(schema).dropTableIfExists('sso_sign_ons');
    await knex.schema.withSchema(schema).dropTableIfExists('organization_sso');
  },
};
