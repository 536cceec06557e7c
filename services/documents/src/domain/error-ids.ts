/**
 * The spec's errorIds this service answers with. Each one is also in the programs service's catalogue
 * (services/programs/src/domain/error-ids.ts), so that every form has a text to show for it.
 */
export const ERROR_IDS = {
  invalidNumberOfFiles: 'invalidNumberOfFiles',
  invalidFileSizeEmpty: 'invalidFileSizeEmpty',
  invalidFileSizeMax: 'invalidFileSizeMax',
  unsupportedDocMimeType: 'unsupportedDocMimeType',
  invalidStep: 'invalidStep',
} as const;

export type ErrorId = (typeof ERROR_IDS)[keyof typeof ERROR_IDS];
