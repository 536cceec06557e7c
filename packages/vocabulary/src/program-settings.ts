/** Closed lists a program's settings choose from (the admin API's enums and the programs service's checks). */

/** How long a document review may take at most, and what the form tells the person to expect. */
export const MAX_REVIEW_TIMES = ['2_MIN', '20_MIN', '2_HRS', '24_HRS', '2_DAY', '3_DAY'] as const;
export const ESTIMATED_REVIEW_TIMES = ['A_FEW_MINUTES', 'A_HALF_HOUR', 'A_FEW_HOURS', 'A_FEW_DAYS'] as const;

/** Organization types a program's organizationRules may name (the organizations catalog's types). */
export const ORGANIZATION_TYPES = [
  'UNIVERSITY',
  'POST_SECONDARY',
  'HIGH_SCHOOL',
  'K12',
  'MILITARY',
  'FIRST_RESPONDER',
  'MEDICAL',
  'CORPORATE',
  'MEMBERSHIP',
  'NON_PROFIT',
  'GOVERNMENT',
  'OTHER',
] as const;
