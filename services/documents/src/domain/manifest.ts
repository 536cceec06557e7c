import { invalidArgument } from '@eligo/runtime';
import { MAX_FILE_BYTES, MAX_UPLOAD_FILES, MIN_UPLOAD_FILES, type ErrorId } from '@eligo/vocabulary';
import { errorIdsOf, type DocumentError } from './documents';
import { sanitiseFileName } from './file-name';
import { isAllowedMimeType, normaliseMimeType } from './mime';

/** One file as the client announced it. */
export interface ManifestFile {
  fileName: string;
  mimeType: string;
  fileSize: number;
}

/** A file of the manifest after the checks: sanitised name, canonical type, and why it is refused (if so). */
export interface CheckedFile {
  fileName: string;
  mimeType: string;
  fileSize: number;
  errors: DocumentError[];
}

export interface CheckedManifest {
  files: CheckedFile[];
  /** Empty when every file is accepted; otherwise each refusal's errorId once, in first-seen order. */
  errorIds: ErrorId[];
}

// Echoed back in the reply even when refused: bounded, since it is whatever the client sent.
const MAX_ECHOED_TYPE_LENGTH = 100;

/**
 * Checks a manifest before anything is stored (all or nothing), against the upload limits of
 * @eligo/vocabulary (the gateway bounds bodies by the same numbers). A wrong number of files is not a per-file
 * refusal but a bad request (invalidNumberOfFiles).
 */
export function checkManifest(files: readonly ManifestFile[]): CheckedManifest {
  if (files.length < MIN_UPLOAD_FILES || files.length > MAX_UPLOAD_FILES)
    throw invalidArgument(`Between ${MIN_UPLOAD_FILES} and ${MAX_UPLOAD_FILES} files can be uploaded`, {
      errorIds: ['invalidNumberOfFiles' satisfies ErrorId],
    });
  const checked = files.map(checkFile);
  return { files: checked, errorIds: errorIdsOf(checked.flatMap((f) => f.errors)) };
}

function checkFile(file: ManifestFile): CheckedFile {
  const errors: DocumentError[] = [];
  if (!(file.fileSize > 0)) errors.push('ZERO_SIZE');
  else if (file.fileSize > MAX_FILE_BYTES) errors.push('TOO_LARGE');
  const mimeType = normaliseMimeType(file.mimeType).slice(0, MAX_ECHOED_TYPE_LENGTH);
  if (!isAllowedMimeType(mimeType)) errors.push('UNSUPPORTED_TYPE');
  return { fileName: sanitiseFileName(file.fileName), mimeType, fileSize: file.fileSize, errors };
}
