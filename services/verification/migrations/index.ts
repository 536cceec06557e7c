import type { SchemaMigration } from '@eligo/runtime';
import { verifications } from './001_verifications';
import { stepsAndRequestIds } from './002_steps_and_request_ids';
import { reviewId } from './003_review_id';
import { accountTrackingIndex } from './004_account_tracking_index';
import { locale } from './005_locale';
import { usedSubjectTokens } from './006_used_subject_tokens';
import { staffSearch } from './007_staff_search';
import { eligibilityLists } from './008_eligibility_lists';
import { emailLoops } from './009_email_loops';

/**
 * Migrations of the verification schema, applied in name order after the shared outbox and inbox tables
 * (tracked in verification.knex_migrations). Add one file per change; never edit an applied one.
 */
export const migrations: readonly SchemaMigration[] = [
  verifications,
  stepsAndRequestIds,
  reviewId,
  accountTrackingIndex,
  locale,
  usedSubjectTokens,
  staffSearch,
  eligibilityLists,
  emailLoops,
];
