import type { IncomingHttpHeaders } from 'node:http';
import { notFound, type DomainError } from '@eligo/runtime';
import { MAX_FILE_BYTES } from '@eligo/vocabulary';
import { RestError } from '../errors';
import type { RequestHandler } from 'express';

// The upload limits (at most 3 files, 10 MiB each) are the documents service's too: @eligo/vocabulary.

/**
 * The shape of the tokens in upload paths (a docUpload attempt's, a file's upload token): URL-safe, bounded.
 * Anything else names nothing and is answered like an unknown token, without a service call.
 */
export const TOKEN_PATTERN = '^[A-Za-z0-9_-]{1,128}$';
const TOKEN = new RegExp(TOKEN_PATTERN);

export const isToken = (value: unknown): value is string => typeof value === 'string' && TOKEN.test(value);

/** Route guard: `param` must look like a token, else `notFound()` (the answer for an unknown one). */
export function tokenParam(param: string, notFound: () => DomainError): RequestHandler {
  return (req, _res, next) => next(isToken(req.params[param]) ? undefined : notFound());
}

/** The documents service's answer for an unknown upload token (SEM, like the upload PUT's other errors). */
export const uploadNotFound = (): DomainError => notFound('No such upload');

/**
 * The length of an upload PUT's body, from its headers alone: the bytes are streamed on to the object store,
 * which needs the length up front, and an oversized file is refused before a byte of it is read. A chunked
 * body (or a malformed length) is 411, more than a file may hold 413; both SEM. A request with neither
 * Content-Length nor Transfer-Encoding has an empty body (RFC 9112, 6.3): length 0, which the caller then
 * refuses as not the declared size (an HTTP client sends no length for an empty body, e.g. Python's requests).
 */
export function uploadContentLength(headers: IncomingHttpHeaders, max = MAX_FILE_BYTES): number {
  const declared = headers['content-length'];
  const chunked = headers['transfer-encoding'] !== undefined;
  if (!chunked && declared === undefined) return 0;
  if (chunked || declared === undefined || !/^\d{1,16}$/.test(declared)) {
    throw new RestError(411, 'Content-Length is required (chunked uploads are not accepted)');
  }
  const length = Number(declared);
  if (length > max) {
    throw new RestError(413, `The file exceeds the limit of ${max} bytes`);
  }
  return length;
}
