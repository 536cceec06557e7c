import type { SchemaMigration } from '@eligo/runtime';
import { accountsTokensPrograms } from './001_accounts_tokens_programs';
import { subjectTokenKey } from './002_subject_token_key';
import { webhookNotifications } from './003_webhook_notifications';
import { rewardClaimConfirmation } from './004_reward_claim_confirmation';
import { requireAccountTokenToCreate } from './005_require_account_token_to_create';
import { embedOrigins } from './006_embed_origins';
import { staffConsoleLists } from './007_staff_console_lists';
import { instantMatch } from './008_instant_match';

/**
 * Migrations of the programs schema, applied in name order after the shared outbox and inbox tables
 * (tracked in programs.knex_migrations). Add one file per change; never edit an applied one.
 */
export const migrations: readonly SchemaMigration[] = [
  accountsTokensPrograms,
  subjectTokenKey,
  webhookNotifications,
  rewardClaimConfirmation,
  requireAccountTokenToCreate,
  embedOrigins,
  staffConsoleLists,
  instantMatch,
];
