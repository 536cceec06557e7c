/**
 * A program as the verification flow reads it: the settings of the programs service that decide the steps,
 * the outcomes, the reward and the responses of its verifications. app/ports.ts builds it from the programs
 * service's message, so that nothing past the port depends on the protobuf contract (docs/architecture.md,
 * "The service template").
 */
export interface Program {
  programId: string;
  accountId: string;
  /** One of the spec's segments; the programs service validates it (app/programs.ts segmentOf). */
  segment: string;
  /** Sub-segments a verification may end in; empty: every one of the segment. */
  subSegments: readonly string[];
  /** Only a program the programs service calls live is; any other mode is test mode (the safe side). */
  mode: ProgramMode;
  /** Verifications start from startDate (inclusive) until endDate (exclusive); unset = unbounded. */
  startDate: Date | undefined;
  endDate: Date | undefined;
  offerType: OfferType;
  /** The one code of a static-code offer. */
  rewardCode: string | undefined;
  /** Unclaimed codes of a reward-pool offer (0 for the other offer types). */
  rewardCodesRemaining: number;
  redirectUrl: string | undefined;
  consolationRewardCode: string | undefined;
  /** Age bounds in whole years (age and senior programs). */
  minAge: number | undefined;
  maxAge: number | undefined;
  /** Unset: the defaults (app/documents.ts maxRejections), no review times stated. */
  documentReview: DocumentReview | undefined;
  /** The locale of the program's theme (BCP 47); '' when the theme names none. */
  locale: string;
  /** At most `quantity` successes of one person within `days`; unset: no limit. */
  verificationLimit: { quantity: number; days: number } | undefined;
  /** Public key (JWK as JSON, or PEM) for subject tokens; '' = such tokens are refused. */
  subjectTokenKey: string;
  /** Only a caller with a token of the program's account may create its verifications. */
  requireAccountTokenToCreate: boolean;
  /**
   * Instant-match sources a live program asks, in order, when the built-in decision would not settle the
   * submission (domain/instant-sources.ts); empty: none.
   */
  instantSources: readonly InstantSourceSetting[];
  /** The business's endpoint of an http source, its secret opened; undefined when none. */
  httpSource: HttpSourceSetting | undefined;
  /** Whether the email loop is offered (live submissions at an organization's domain; domain/email-loop.ts). */
  emailLoop: boolean;
}

export interface InstantSourceSetting {
  type: 'list' | 'http';
  /** The sub-segments it is asked for; empty: every one. */
  subSegments: readonly string[];
}

export interface HttpSourceSetting {
  url: string;
  /** Standard Webhooks secret (whsec_...): signs the request, verifies the answer. */
  secret: string;
}

export type ProgramMode = 'test' | 'live';

/** 'noCode' also stands for an offer type this service does not know: no code is handed out. */
export type OfferType = 'staticCode' | 'rewardPool' | 'noCode';

export interface DocumentReview {
  /** Rejected reviews allowed before further uploads are refused. */
  maxRejections: number;
  /** One of 2_MIN 20_MIN 2_HRS 24_HRS 2_DAY 3_DAY; '' = not stated. */
  maxReviewTime: string;
  /** One of A_FEW_MINUTES A_HALF_HOUR A_FEW_HOURS A_FEW_DAYS; '' = not stated. */
  estimatedReviewTime: string;
}
