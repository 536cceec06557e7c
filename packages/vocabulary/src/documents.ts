/**
 * The limits of one document upload (docs/architecture.md, "Wire details"): 1 to 3 files of at most 10 MiB
 * each. The documents service refuses a manifest outside them; the gateway bounds form B's multipart body,
 * an upload PUT's length and the OpenAPI document by the same numbers, so that it never accepts bytes the
 * service would refuse nor refuses a file the service would take.
 */
export const MIN_UPLOAD_FILES = 1;
export const MAX_UPLOAD_FILES = 3;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
