import { anyCaseOneOf } from './text';

/**
 * The limits the reports service puts on a conversion (services/reports/src/domain/conversion.ts), for the
 * document. Currencies are ISO 4217 as ICU knows them (Intl.supportedValuesOf), like the service, in any case.
 */
export const MAX_AMOUNT = 1e11;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 64;
/** Distinct tags a verification keeps over all its conversions; new ones past it are dropped. */
export const MAX_TAGS_PER_VERIFICATION = 100;
export const CURRENCY_PATTERN = anyCaseOneOf(
  Intl.supportedValuesOf('currency'),
  'must be an ISO 4217 currency code',
);
