/**
 * What can happen to a verification: one trigger per row group of the spec's "States and transitions"
 * table. Starting is not a trigger here, since it has no state before it (the verification domain's firstStep).
 */
export const TRIGGERS = [
  'submitPersonalInfo',
  'submitMilitaryStatus',
  'submitSocialSecurityNumber',
  'skipSocialSecurityNumber',
  'finishSso',
  'cancelSso',
  'submitEmailToken',
  'resendEmailToken',
  'cancelEmailLoop',
  'uploadDocuments',
  'reviewCompleted',
  'expire',
] as const;

export type Trigger = (typeof TRIGGERS)[number];
