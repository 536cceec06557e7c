import type { z } from 'zod';
import type { ProgramConfiguration, Theme, Webhook } from '../endpoints/program-responses';
import type { WebhookNotificationName } from './webhook-notification';

/**
 * The JSON shapes of the program endpoints: the replies as their schemas (endpoints/program-responses.ts)
 * describe them, and the settings bodies of ProgramCreateRequest and ProgramPatchRequest.
 */

export type ThemeJson = z.input<typeof Theme>;
export type ProgramJson = z.input<typeof ProgramConfiguration>;
export type WebhookJson = z.input<typeof Webhook>;

export interface ThemeInput {
  intl?: { locale?: string; messages?: Record<string, string>; errorId?: Record<string, string> };
  customCss?: string;
}

export interface OrganizationRulesInput {
  types?: string[];
  countries?: string[];
  includeIds?: number[];
  excludeIds?: number[];
}

/** WebhookRequest (POST /program/{programId}/webhook) and the webhook setting of create and patch. */
export interface WebhookInput {
  callbackUri: string;
  notifierEventTypes?: WebhookNotificationName[];
}

/** The settings of ProgramCreateRequest and ProgramPatchRequest; null means "none" (clear). */
export interface ProgramSettingsInput {
  name?: string;
  segment?: string;
  subSegments?: string[] | null;
  mode?: 'test' | 'live';
  startDate?: string | null;
  endDate?: string | null;
  offerType?: 'staticCode' | 'rewardPool' | 'noCode';
  rewardCode?: string | null;
  redirectUrl?: string | null;
  consolationRewardCode?: string | null;
  minAge?: number | null;
  maxAge?: number | null;
  countries?: string[] | null;
  maxRejections?: number;
  maxReviewTime?: string | null;
  estimatedReviewTime?: string | null;
  organizationRules?: OrganizationRulesInput | null;
  theme?: ThemeInput | null;
  webhook?: WebhookInput | null;
  verificationLimit?: { quantity: number; days: number } | null;
  subjectTokenKey?: string | null;
  /** null is false, the default. */
  requireAccountTokenToCreate?: boolean | null;
}

export interface ProgramCreateInput extends ProgramSettingsInput {
  accountId: string;
  name: string;
  segment: string;
}
