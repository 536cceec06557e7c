import { invalidArgument } from '../errors/domain-error';
import { DEFAULT_CONTENT_TYPE, MAX_PRESIGN_SECONDS, type PutOptions } from './object-store';

/** S3 allows 1024 bytes; the charset below is ASCII, so characters and bytes agree. */
export const MAX_KEY_LENGTH = 1024;

// A deliberately small alphabet: safe in URLs, S3 keys and file names on every OS, so a key means the same
// thing to both adapters and needs no escaping anywhere. Segments are separated by single slashes.
const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Why a key is refused, or undefined when it is acceptable. Pure, so it is table-tested. */
export function keyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string' || key.length === 0) return 'must be a non-empty string';
  if (key.length > MAX_KEY_LENGTH) return `must be at most ${MAX_KEY_LENGTH} characters`;
  if (key.startsWith('/')) return 'must be relative (no leading slash)';
  for (const segment of key.split('/')) {
    if (segment === '') return 'must not contain empty segments (// or a trailing slash)';
    if (segment === '.' || segment === '..') return 'must not contain . or .. segments';
    if (!SEGMENT.test(segment)) return 'may contain only letters, digits, ".", "_", "-" and "/"';
  }
  return undefined;
}

/** A listing prefix: "" or the start of a key (so it may end in "/" or part of a segment). */
export function assertValidPrefix(prefix: unknown): asserts prefix is string {
  if (typeof prefix !== 'string' || prefix.length > MAX_KEY_LENGTH || !/^[A-Za-z0-9._/-]*$/.test(prefix))
    throw invalidArgument('invalid object key prefix');
}

export function assertValidKey(key: unknown): asserts key is string {
  const problem = keyProblem(key);
  // The key itself is not echoed: it may come from a client and end up in logs or responses.
  if (problem) throw invalidArgument(`invalid object key: ${problem}`);
}

export function assertPresignExpiry(seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_PRESIGN_SECONDS) {
    throw invalidArgument(
      `presigned URL expiry must be a whole number of seconds from 1 to ${MAX_PRESIGN_SECONDS}`,
    );
  }
}

// type/subtype with optional parameters, printable ASCII only: the value is replayed as a response header.
const CONTENT_TYPE = /^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.+-]+=("[\x20-\x7e]*"|[\w.+-]+))*$/;

/** The content type to store: the default when absent, otherwise validated and normalised (trimmed). */
export function normalizeContentType(contentType: string | undefined): string {
  if (contentType === undefined || contentType.trim() === '') return DEFAULT_CONTENT_TYPE;
  const value = contentType.trim();
  if (value.length > 255 || !CONTENT_TYPE.test(value)) throw invalidArgument('invalid content type');
  return value;
}

/** The failure of a put whose body did not have the length the caller declared. */
export function sizeMismatch(declared: number): Error {
  return invalidArgument(`object body length does not match its declared size of ${declared} bytes`);
}

export function assertDeclaredSize(size: PutOptions['size']): void {
  if (size !== undefined && (!Number.isSafeInteger(size) || size < 0)) {
    throw invalidArgument('object size must be a non-negative integer');
  }
}
