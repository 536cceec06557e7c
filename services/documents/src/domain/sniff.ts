import { isAllowedMimeType, normaliseMimeType } from './mime';

export type SniffVerdict = { accepted: true; detectedMimeType: string } | { accepted: false };

/**
 * Whether stored bytes may be kept: the type sniffed from them must be allowed AND be the type the client
 * declared. A declared type alone proves nothing (a script renamed to .pdf), and a mismatch means the
 * reviewer's browser would treat the file as something other than what was checked.
 * `detected` is undefined when the bytes match no known signature (plain text, garbage).
 */
export function sniffVerdict(declared: string, detected: string | undefined): SniffVerdict {
  if (detected === undefined) return { accepted: false };
  const detectedMimeType = normaliseMimeType(detected);
  if (!isAllowedMimeType(detectedMimeType) || detectedMimeType !== normaliseMimeType(declared))
    return { accepted: false };
  return { accepted: true, detectedMimeType };
}
