import { invalidArgument } from '@eligo/runtime';
import { errorIdsOf, MAX_FILE_BYTES, MAX_FILES, MIN_FILES, type DocumentError } from './documents';
import { ERROR_IDS, type ErrorId } from './error-ids';
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
 * Checks a manifest before anything is stored (all or nothing). A wrong number of files is not a per-file
 * refusal but a bad request (invalidNumberOfFiles).
 */
export function checkManifest(files: readonly ManifestFile[]): CheckedManifest {
  if (files.length < MIN_FILES || files.length > MAX_FILES)
    throw invalidArgument(`Between ${MIN_FILES} and ${MAX_FILES} files can be uploaded`, {
      errorIds: [ERROR_IDS.invalidNumberOfFiles],
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
