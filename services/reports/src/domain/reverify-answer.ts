/** What the verification service's instant match says of a verification today (a re-verification item). */
export type ReverifyOutcome = 'ELIGIBLE' | 'NEEDS_REVIEW' | 'INELIGIBLE' | 'NO_PERSONAL_INFO';

/** The instant match's answer for one verification, in the service's own words (app/ports.ts converts). */
export interface ReverifyAnswer {
  outcome: ReverifyOutcome;
  errorIds: string[];
  /** The step the verification itself is on; null when the answer names none. */
  currentStep: string | null;
  /** The catalog organization the match accepted; null when none. */
  organizationId: number | null;
}
