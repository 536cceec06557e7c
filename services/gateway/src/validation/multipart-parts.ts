import { invalidArgument, type DomainError } from '@eligo/runtime';
import { invalidRequest, RestError } from '../errors';
import type { Limits } from 'busboy';
import { MAX_FILE_BYTES, MAX_UPLOAD_FILES as MAX_FILES } from '@eligo/vocabulary';

export { invalidRequest };

/** Form B's whole body: three full files and room for the part headers and boundaries. */
export const MAX_MULTIPART_BYTES = MAX_FILES * MAX_FILE_BYTES + 1024 * 1024;

/** The longest file name and MIME type a file may carry, in either form (form A's schema uses them). */
export const MAX_FILE_NAME_LENGTH = 255;
export const MAX_MIME_TYPE_LENGTH = 127;

/**
 * busboy's limits for form B. One byte past the file maximum: busboy stops handing over a file's bytes there,
 * so an oversized file is forwarded only that far (one byte too many, which the documents service refuses as
 * TOO_LARGE) and the rest of it is discarded. A fourth file trips `files` (invalidNumberOfFiles). Non-file
 * fields are refused as soon as they end; fieldSize 0 keeps busboy from buffering their values meanwhile.
 */
export const multipartLimits: Limits = {
  files: MAX_FILES,
  fileSize: MAX_FILE_BYTES + 1,
  fieldSize: 0,
};

/**
 * A part key: the spec's "each part key beginning with `file`" (file, file1, file2, fileFront, files[], ...),
 * of a bounded length and plain characters. The OpenAPI document publishes it (endpoints/doc-upload.ts).
 */
export const FILE_PART_PATTERN = '^file[A-Za-z0-9_.\\[\\]-]{0,60}$';
const FILE_PART = new RegExp(FILE_PART_PATTERN);
const PART_NAMES =
  'beginning with "file" (file, file1, file2, ...; at most 64 characters of A-Z a-z 0-9 _ . - [ ])';

export interface FilePartInfo {
  filename: string | undefined;
  mimeType: string;
}

/**
 * What is wrong with a file part, or undefined when it may be forwarded. `earlier` are the names of the parts
 * already taken: two parts of one name would leave it unclear which file is which.
 */
export function filePartProblem(
  name: string | undefined,
  info: FilePartInfo,
  earlier: readonly string[] = [],
): DomainError | undefined {
  if (name === undefined || !FILE_PART.test(name))
    return invalidRequest(
      `Part ${JSON.stringify(name ?? '')} is not accepted: files go in parts named ${PART_NAMES}`,
    );
  if (earlier.includes(name))
    return invalidRequest(`Part ${name} appears twice: give each file its own part name`);
  const { filename, mimeType } = info;
  if (!filename || filename.length > MAX_FILE_NAME_LENGTH)
    return invalidRequest(`Part ${name} needs a file name of 1 to ${MAX_FILE_NAME_LENGTH} characters`);
  if (mimeType.length > MAX_MIME_TYPE_LENGTH)
    return invalidRequest(`Part ${name} has a Content-Type longer than ${MAX_MIME_TYPE_LENGTH} characters`);
  return undefined;
}

/** A part without a file name: form B carries files only. */
export function fieldPartProblem(name: string | undefined): DomainError {
  return invalidRequest(
    `Part ${JSON.stringify(name ?? '')} is not a file: only file parts named ${PART_NAMES} are accepted`,
  );
}

/** More files than an upload may hold: refused by the gateway, like the service refuses a manifest of four. */
export function tooManyFiles(): DomainError {
  return invalidArgument(`At most ${MAX_FILES} files may be uploaded`, {
    errorIds: ['invalidNumberOfFiles'],
  });
}

export function multipartTooLarge(): RestError {
  return new RestError(413, `Request body is larger than ${MAX_MULTIPART_BYTES} bytes`, 'ER', [
    'invalidRequest',
  ]);
}

/** A declared Content-Length over the limit is refused before any byte is read. */
export function declaredLengthTooLarge(contentLength: string | undefined): boolean {
  return contentLength !== undefined && Number(contentLength) > MAX_MULTIPART_BYTES;
}
