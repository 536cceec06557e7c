/** Longest stored file name, in characters (the extension is kept within it). */
export const MAX_FILE_NAME_LENGTH = 200;
const FALLBACK_NAME = 'document';
// Extensions worth keeping when a long name is cut: short and plain (".pdf", ".jpeg").
const EXTENSION = /\.([A-Za-z0-9]{1,10})$/;

/**
 * The name shown to staff for a file the client named. The client's name is untrusted text: only its last
 * path segment is kept (never a path), without control or invisible formatting characters (a right-to-left
 * override could disguise ".exe" as ".pdf" on a reviewer's screen), trimmed, at most MAX_FILE_NAME_LENGTH
 * characters with its extension kept, and never empty. It is never used as a storage key.
 */
export function sanitiseFileName(raw: string): string {
  const lastSegment = raw.split(/[/\\]/).pop() ?? '';
  const cleaned = lastSegment
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/\s+/gu, ' ')
    // Leading dots hide a file on Unix; trailing dots and spaces vanish on Windows.
    .replace(/^[\s.]+|[\s.]+$/gu, '');
  return truncateKeepingExtension(cleaned === '' ? FALLBACK_NAME : cleaned);
}

function truncateKeepingExtension(name: string): string {
  const chars = [...name];
  if (chars.length <= MAX_FILE_NAME_LENGTH) return name;
  const extension = EXTENSION.exec(name)?.[0] ?? '';
  const base = chars.slice(0, MAX_FILE_NAME_LENGTH - extension.length).join('');
  return `${base.replace(/[\s.]+$/u, '') || FALLBACK_NAME}${extension}`;
}
