import type { Request } from 'express';
import { NO_CONTROL_CHARACTERS, patternMessage } from '../openapi/schemas/text';
import { optionalText } from '../validation/query-params';
import { invalidRequest } from '../validation/request-validator';

/** The document's pattern for identifiers and cursors (plainText), as the query parameters' check. */
const PLAIN_TEXT = new RegExp(NO_CONTROL_CHARACTERS);

/**
 * An optional query parameter the document gives as plainText (a tracking id, an opaque cursor): read like
 * optionalText, which lets through the whitespace a service trims off search text, then held to the
 * schema's pattern, so that no control character passes, surrounding tabs and line breaks included.
 */
export function optionalPlainText(
  query: Request['query'],
  name: string,
  maxLength: number,
): string | undefined {
  const value = optionalText(query, name, maxLength);
  if (value !== undefined && !PLAIN_TEXT.test(value))
    throw invalidRequest(`query.${name} ${patternMessage(NO_CONTROL_CHARACTERS)!}`);
  return value;
}
