/** The docUpload step's bodies, the upload PUT's answer and the staff review queue (admin API). */

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
  DocUploadRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['files'],
    description:
      'Form A: the files to upload, 1 to 3 (more or none is the step error invalidNumberOfFiles). Each file ' +
      'of at most 10 MB (10485760 bytes), JPEG, PNG, GIF or PDF.',
    properties: {
      files: {
        type: 'array',
        maxItems: 10,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['fileName', 'mimeType', 'fileSize'],
          properties: {
            fileName: { type: 'string', minLength: 1, maxLength: 255 },
            mimeType: { type: 'string', minLength: 1, maxLength: 127, examples: ['image/png'] },
            fileSize: {
              type: 'integer',
              minimum: 0,
              maximum: Number.MAX_SAFE_INTEGER,
              description: 'Bytes; 0 is refused as ZERO_SIZE, more than 10485760 as TOO_LARGE.',
            },
          },
        },
      },
    },
  },
  Document: {
    type: 'object',
    required: ['documentId', 'status', 'mimeType', 'fileSize', 'errors'],
    properties: {
      documentId: { type: 'string' },
      status: documentStatus,
      mimeType: { type: 'string' },
      fileSize: { type: 'integer', minimum: 0 },
      uploadUrl: {
        type: 'string',
        format: 'uri',
        description:
          'Form A, while the file awaits its bytes: PUT the raw file here (no token, Content-Length required; ' +
          'it works once).',
      },
      errors: documentErrors,
    },
  },
  DocUploadResponse: {
    description:
      'The VR of the docUpload step with the documents, in the order of the request. After form A is ' +
      'accepted, submissionUrl is …/step/completeDocUpload.',
    allOf: [
      ref('VerificationResponse'),
      {
        type: 'object',
        required: ['documents'],
        properties: { documents: { type: 'array', items: ref('Document') } },
      },
    ],
  },
  UploadedDocument: {
    type: 'object',
    required: ['documentId', 'status', 'mimeType', 'fileSize', 'errors'],
    description: 'A file after its upload. A refused one (400) also has errorIds [unsupportedDocMimeType].',
    properties: {
      documentId: { type: 'string' },
      status: documentStatus,
      mimeType: { type: 'string' },
      fileSize: { type: 'integer', minimum: 0 },
      errors: documentErrors,
      errorIds: { ...strings, examples: [['unsupportedDocMimeType']] },
      systemErrorMessage: { type: 'string' },
    },
  },
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
