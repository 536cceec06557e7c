import { z } from 'zod';
import { MAX_FILE_BYTES, MAX_UPLOAD_FILES } from '@eligo/vocabulary';
import type { VerificationResponseJson } from '../mapping/verification';
import { TOKEN_PATTERN } from '../validation/doc-upload-limits';
import { FILE_PART_PATTERN, MAX_MULTIPART_BYTES } from '../validation/multipart-parts';
import { er, sem, unavailable } from './common';
import { defineEndpoint, type BodyOf, type EndpointResponse } from './define';
import { DocUploadRequest, DocUploadResponse, UploadedDocument } from './doc-upload-schemas';
import { componentRef, patterned } from './schemas';
import { noVerification, tags, verificationId } from './verification';

/**
 * The docUpload step of REST v2 (form A: a JSON manifest, form B: the files as multipart/form-data),
 * completeDocUpload, and form A's upload URLs outside /rest/v2: described once. The routes (routes/doc-upload.ts,
 * routes/uploads.ts) register them by these paths; form A's manifest is checked with DocUploadRequest, while
 * multipart and raw bodies are checked as they stream (validation/multipart-parts.ts,
 * validation/doc-upload-limits.ts), which the media types below state.
 */

/** No token: the verification id (an upload token) is the capability. */
const security = [] as const;

const token = (description: string) => patterned(TOKEN_PATTERN).meta({ description });

const VerificationResponse = componentRef<VerificationResponseJson>('VerificationResponse');

/** A 400 of the step: the operation's own answer, or the step error (a VR with currentStep error). */
const orStepError = (description: string, schema: z.ZodType): EndpointResponse => ({
  description,
  body: z.union([schema, componentRef('VerificationStepError')]),
});

/** Form B's parts: the OpenAPI statement of what validation/multipart-parts.ts checks as they stream. */
const multipartBody = {
  json: {
    type: 'object',
    description:
      `Form B: one file part per document (at most ${MAX_UPLOAD_FILES}, each with a file name), each part ` +
      'name beginning with `file` (file, file1, file2, ...; at most 64 characters of A-Z a-z 0-9 _ . - [ ]) ' +
      'and used once. Any other part, or a name used twice, is 400 invalidRequest; a fourth file 400 ' +
      'invalidNumberOfFiles.',
    minProperties: 1,
    maxProperties: MAX_UPLOAD_FILES,
    patternProperties: {
      [FILE_PART_PATTERN]: { type: 'string', contentMediaType: 'application/octet-stream' },
    },
    additionalProperties: false,
  },
} as const;

const docUpload = {
  method: 'post',
  summary: 'Uploads the documents of the docUpload step (form A: a manifest; form B: the files)',
  description:
    'Form A (application/json): the manifest of the files; the answer gives each document an uploadUrl to PUT ' +
    'its bytes to, and completeDocUpload as submissionUrl. Form B (multipart/form-data): the files themselves; ' +
    'the answer is pending. All or nothing: when a file is refused nothing is kept, and the answer is 400 with ' +
    'each file’s errors. Any other Content-Type is 400 invalidRequest.',
  tags,
  security,
  // Form A's manifest; routes/doc-upload.ts checks it once the Content-Type chose the form.
  body: DocUploadRequest,
  bodyContent: { 'multipart/form-data': multipartBody },
  responses: {
    '200': {
      description:
        'Form A: the documents with their uploadUrl, and submissionUrl …/step/completeDocUpload. Form B: the ' +
        'VR, pending with its statusUrl.',
      body: z.union([DocUploadResponse, VerificationResponse]),
    },
    '400': orStepError(
      'A file was refused (errorIds unsupportedDocMimeType, invalidFileSizeMax, invalidFileSizeEmpty; the ' +
        'documents carry ZERO_SIZE, TOO_LARGE or UNSUPPORTED_TYPE), or the request was (currentStep error, ' +
        'errorIds [invalidRequest], [invalidNumberOfFiles], or [invalidStep] when the verification is not at ' +
        'docUpload)',
      DocUploadResponse,
    ),
    '404': noVerification,
    '413': er(
      `Body too large: the manifest over ELIGO_HTTP_BODY_LIMIT, or a multipart body over ${MAX_MULTIPART_BYTES} ` +
        `bytes (${MAX_UPLOAD_FILES} files of 10 MB and 1 MB of headers)`,
    ),
    '429': er('The verification used up its document reviews (errorIds [docReviewLimitExceeded])'),
    '502': sem('Form B: the document store did not take a file; nothing was kept, send the files again'),
    ...unavailable,
  },
} as const;

export const uploadDocuments = defineEndpoint({
  ...docUpload,
  path: '/verification/{verificationId}/step/docUpload',
  operationId: 'uploadDocuments',
  params: z.object({ verificationId }),
});

export const uploadDocumentsForAttempt = defineEndpoint({
  ...docUpload,
  path: '/verification/{verificationId}/step/docUpload/{docUploadToken}',
  operationId: 'uploadDocumentsForAttempt',
  params: z.object({
    verificationId,
    docUploadToken: token(
      'The upload attempt, as the last segment of the docUpload submissionUrl. A malformed value, or one ' +
        'that is not the current attempt’s, is answered 404 noVerification.',
    ),
  }),
});

export const completeDocUpload = defineEndpoint({
  method: 'post',
  path: '/verification/{verificationId}/step/completeDocUpload',
  operationId: 'completeDocUpload',
  summary: 'Form A, after every file was uploaded: submits the documents for review',
  description: 'No body. Answers the same again when repeated.',
  tags,
  security,
  params: z.object({ verificationId }),
  responses: {
    '200': { description: 'pending, with its statusUrl', body: VerificationResponse },
    '400': orStepError(
      'Not every file was uploaded and accepted, or the verification is not at docUpload (currentStep ' +
        'error, errorIds [invalidStep])',
      VerificationResponse,
    ),
    '404': noVerification,
    ...unavailable,
  },
});

export const uploadDocumentFile = defineEndpoint({
  method: 'put',
  path: '/uploads/{uploadToken}',
  server: 'uploads',
  operationId: 'uploadDocumentFile',
  summary: 'Uploads the bytes of one document of form A (its uploadUrl)',
  description:
    'No token: the URL is the capability, and it works once. Content-Length is required and must be the ' +
    'fileSize of the manifest; the body is the raw file. The document is checked once stored (its type is ' +
    'read from the bytes).',
  tags: ['upload'],
  security,
  params: z.object({ uploadToken: token('From the document’s uploadUrl.') }),
  // Streamed on to the object store as it arrives; its length is checked from the headers (routes/uploads.ts).
  // Any bytes are a file: no schema a body could violate (JSON Schema's `type: string` made a JSON object sent as
  // application/json "invalid", which the route never reads as JSON). What the bytes are is checked once stored.
  bodyContent: {
    '*/*': { json: { description: 'The file’s bytes, as they are, of the declared Content-Length' } },
  },
  responses: {
    '200': { description: 'The file is stored and accepted (status UPLOADED)', body: UploadedDocument },
    '400': {
      description:
        'The stored bytes are not an accepted type (status REJECTED, errorIds [unsupportedDocMimeType]; upload ' +
        'again from the docUpload step), or Content-Length is not the declared size (SEM naming it; the URL ' +
        'may be used again; a request without Content-Length or Transfer-Encoding has an empty body)',
      body: z.union([UploadedDocument, componentRef('SystemErrorMessage')]),
    },
    '404': sem('No such upload'),
    '410': sem('The upload URL expired or was used'),
    '411': sem('A chunked body, or a malformed Content-Length (chunked bodies are not accepted)'),
    '413': sem(`The file is larger than 10 MB (${MAX_FILE_BYTES} bytes); refused before it is read`),
    '502': sem('The document store did not take the file; the URL may be used again'),
    ...unavailable,
  },
});

/** Form A's manifest, once checked. */
export type DocUploadBody = BodyOf<typeof uploadDocuments>;

export const docUploadEndpoints = [
  uploadDocuments,
  uploadDocumentsForAttempt,
  completeDocUpload,
  uploadDocumentFile,
] as const;
