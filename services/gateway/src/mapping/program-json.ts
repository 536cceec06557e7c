import type { WebhookNotificationName } from './webhook-notification';

/** The JSON shapes of the program endpoints, as the OpenAPI document (schemas/program*.ts) describes them. */

export interface ThemeJson {
  intl: { locale: string; messages: Record<string, string>; errorId: Record<string, string> };
  customCss: string;
}

export interface ProgramJson {
  programId: string;
  accountId: string;
  name: string;
  segment: string;
  subSegments: string[];
  mode: 'test' | 'live';
  startDate: string | null;
  endDate: string | null;
  offerType: 'staticCode' | 'rewardPool' | 'noCode';
  rewardCode: string | null;
  rewardCodesRemaining: number;
  redirectUrl: string | null;
  consolationRewardCode: string | null;
  minAge: number | null;
  maxAge: number | null;
  countries: string[];
  maxRejections: number;
  maxReviewTime: string | null;
  estimatedReviewTime: string | null;
  organizationRules: { types: string[]; countries: string[]; includeIds: number[]; excludeIds: number[] };
  theme: ThemeJson;
  webhook: WebhookJson | null;
  verificationLimit: { quantity: number; days: number } | null;
  subjectTokenKey: string | null;
  requireAccountTokenToCreate: boolean;
  created: number;
  updated: number;
}

export interface WebhookJson {
  callbackUri: string;
  /** The optional notifications the program opted in to; [] when none (success is always sent). */
  notifierEventTypes: WebhookNotificationName[];
  created: number;
  signingSecret?: string;
}

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
