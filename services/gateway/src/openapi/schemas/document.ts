/**
 * The staff review queue of the admin API. The docUpload step's bodies and the upload PUT's answer are
 * endpoints/doc-upload-schemas.ts's (zod); a review's documents have the same status and errors.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const strings = { type: 'array', items: { type: 'string' } } as const;
const instant = (description: string) => ({
  type: ['string', 'null'],
  format: 'date-time',
  description: `${description} ISO 8601.`,
});

const documentStatus = {
  type: 'string',
  enum: ['AWAITING_UPLOAD', 'UPLOADING', 'UPLOADED', 'REJECTED'],
} as const;
const documentErrors = {
  ...strings,
  description: 'Why the file was refused: ZERO_SIZE, TOO_LARGE or UNSUPPORTED_TYPE.',
  examples: [['TOO_LARGE']],
} as const;

export const documentSchemas = {
  ReviewDocument: {
    type: 'object',
    required: ['documentId', 'fileName', 'status', 'mimeType', 'fileSize', 'errors'],
    properties: {
      documentId: { type: 'string' },
      fileName: { type: 'string', description: 'The sanitised name the client gave.' },
      status: documentStatus,
      mimeType: { type: 'string' },
      fileSize: { type: 'integer', minimum: 0 },
      errors: documentErrors,
    },
  },
  Review: {
    type: 'object',
    required: [
      'reviewId',
      'verificationId',
      'programId',
      'accountId',
      'status',
      'testMode',
      'documents',
      'rejectionReasons',
      'submittedAt',
      'decidedAt',
      'decidedBy',
      'filesDeletedAt',
    ],
    properties: {
      reviewId: { type: 'string', format: 'uuid' },
      verificationId: { type: 'string' },
      programId: { type: 'string' },
      accountId: { type: 'string' },
      status: { type: 'string', enum: ['pending', 'approved', 'rejected'] },
      testMode: {
        type: 'boolean',
        description: 'Test-mode reviews are decided at once from the file names.',
      },
      documents: { type: 'array', items: ref('ReviewDocument') },
      rejectionReasons: { ...strings, examples: [['DOCUMENT_UNREADABLE']] },
      submittedAt: instant('When the documents were submitted.'),
      decidedAt: instant('null while pending.'),
      decidedBy: { type: ['string', 'null'], enum: ['staff', 'test-mode', null] },
      filesDeletedAt: instant('When retention deleted the files; null before.'),
    },
  },
  ReviewDetail: {
    description: 'A review with a short-lived link to each of its files (none once retention deleted them).',
    allOf: [
      ref('Review'),
      {
        type: 'object',
        required: ['files'],
        properties: {
          files: {
            type: 'array',
            items: {
              type: 'object',
              required: ['documentId', 'url', 'expiresAt'],
              properties: {
                documentId: { type: 'string' },
                url: { type: 'string', format: 'uri' },
                expiresAt: instant('When the link stops working.'),
              },
            },
          },
        },
      },
    ],
  },
  ReviewPage: {
    type: 'object',
    required: ['reviews', 'nextCursor'],
    properties: {
      reviews: { type: 'array', items: ref('Review') },
      nextCursor: { type: ['string', 'null'], description: 'null on the last page.' },
    },
  },
} as const;
