import { MAX_UPLOAD_FILES as MAX_FILES } from '@eligo/vocabulary';
import { FILE_PART_PATTERN } from '../validation/multipart-parts';
import { errorResponse, jsonBody, jsonResponse, ref } from './refs';
import { noVerification, unavailable, verificationId } from './verification.paths';

const tags = ['verification'];
const anyOf = (description: string, ...schemas: string[]) => ({
  description,
  content: { 'application/json': { schema: { anyOf: schemas.map((name) => ref('schemas', name)) } } },
});
const sem = (description: string) => errorResponse(description, 'SystemErrorMessage');

const docUploadToken = {
  name: 'docUploadToken',
  in: 'path',
  required: true,
  description:
    'The upload attempt, as the last segment of the docUpload submissionUrl. A malformed value, or one that ' +
    'is not the current attempt’s, is answered 404 noVerification.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' },
};

const multipartBody = {
  schema: {
    type: 'object',
    description:
      'Form B: one file part per document (at most 3, each with a file name), each part name beginning with ' +
      '`file` (file, file1, file2, ...; at most 64 characters of A-Z a-z 0-9 _ . - [ ]) and used once. Any ' +
      'other part, or a name used twice, is 400 invalidRequest; a fourth file 400 invalidNumberOfFiles.',
    minProperties: 1,
    maxProperties: MAX_FILES,
    patternProperties: {
      [FILE_PART_PATTERN]: { type: 'string', contentMediaType: 'application/octet-stream' },
    },
    additionalProperties: false,
  },
};

const docUpload = {
  tags,
  summary: 'Uploads the documents of the docUpload step (form A: a manifest; form B: the files)',
  description:
    'Form A (application/json): the manifest of the files; the answer gives each document an uploadUrl to PUT ' +
    'its bytes to, and completeDocUpload as submissionUrl. Form B (multipart/form-data): the files themselves; ' +
    'the answer is pending. All or nothing: when a file is refused nothing is kept, and the answer is 400 with ' +
    'each file’s errors. Any other Content-Type is 400 invalidRequest.',
  requestBody: {
    required: true,
    content: { ...jsonBody('DocUploadRequest').content, 'multipart/form-data': multipartBody },
  },
  responses: {
    '200': anyOf(
      'Form A: the documents with their uploadUrl, and submissionUrl …/step/completeDocUpload. Form B: the ' +
        'VR, pending with its statusUrl.',
      'DocUploadResponse',
      'VerificationResponse',
    ),
    '400': anyOf(
      'A file was refused (errorIds unsupportedDocMimeType, invalidFileSizeMax, invalidFileSizeEmpty; the ' +
        'documents carry ZERO_SIZE, TOO_LARGE or UNSUPPORTED_TYPE), or the request was (currentStep error, ' +
        'errorIds [invalidRequest], [invalidNumberOfFiles], or [invalidStep] when the verification is not at ' +
        'docUpload)',
      'DocUploadResponse',
      'VerificationStepError',
    ),
    '404': noVerification,
    '413': errorResponse(
      'Body too large: the manifest over ELIGO_HTTP_BODY_LIMIT, or a multipart body over 32505856 bytes (3 ' +
        'files of 10 MB and 1 MB of headers)',
      'ErrorResponse',
    ),
    '429': errorResponse(
      'The verification used up its document reviews (errorIds [docReviewLimitExceeded])',
      'ErrorResponse',
    ),
    '502': sem('Form B: the document store did not take a file; nothing was kept, send the files again'),
    ...unavailable,
  },
};

const fileUpload = {
  tags: ['upload'],
  operationId: 'uploadDocumentFile',
  summary: 'Uploads the bytes of one document of form A (its uploadUrl)',
  description:
    'No token: the URL is the capability, and it works once. Content-Length is required and must be the ' +
    'fileSize of the manifest; the body is the raw file. The document is checked once stored (its type is ' +
    'read from the bytes).',
  requestBody: {
    required: true,
    content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
  },
  responses: {
    '200': jsonResponse('The file is stored and accepted (status UPLOADED)', 'UploadedDocument'),
    '400': anyOf(
      'The stored bytes are not an accepted type (status REJECTED, errorIds [unsupportedDocMimeType]; upload ' +
        'again from the docUpload step), or Content-Length is not the declared size (SEM naming it; the URL ' +
        'may be used again)',
      'UploadedDocument',
      'SystemErrorMessage',
    ),
    '404': sem('No such upload'),
    '410': sem('The upload URL expired or was used'),
    '411': sem('No Content-Length (chunked bodies are not accepted)'),
    '413': sem('The file is larger than 10 MB (10485760 bytes); refused before it is read'),
    '502': sem('The document store did not take the file; the URL may be used again'),
    ...unavailable,
  },
};

/** The docUpload step (both path shapes), completeDocUpload, and form A's upload URLs outside /rest/v2. */
export function docUploadPaths(publicBaseUrl: string) {
  return {
    '/verification/{verificationId}/step/docUpload': {
      parameters: [verificationId],
      post: { ...docUpload, operationId: 'uploadDocuments' },
    },
    '/verification/{verificationId}/step/docUpload/{docUploadToken}': {
      parameters: [verificationId, docUploadToken],
      post: { ...docUpload, operationId: 'uploadDocumentsForAttempt' },
    },
    '/verification/{verificationId}/step/completeDocUpload': {
      parameters: [verificationId],
      post: {
        tags,
        operationId: 'completeDocUpload',
        summary: 'Form A, after every file was uploaded: submits the documents for review',
        description: 'No body. Answers the same again when repeated.',
        responses: {
          '200': jsonResponse('pending, with its statusUrl', 'VerificationResponse'),
          '400': anyOf(
            'Not every file was uploaded and accepted, or the verification is not at docUpload (currentStep ' +
              'error, errorIds [invalidStep])',
            'VerificationResponse',
            'VerificationStepError',
          ),
          '404': noVerification,
          ...unavailable,
        },
      },
    },
    '/uploads/{uploadToken}': {
      servers: [{ url: publicBaseUrl, description: 'Upload URLs (outside the REST API; no token)' }],
      parameters: [
        {
          name: 'uploadToken',
          in: 'path',
          required: true,
          description: 'From the document’s uploadUrl.',
          schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' },
        },
      ],
      put: fileUpload,
    },
  } as Record<string, object>;
}
