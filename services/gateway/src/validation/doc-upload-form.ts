/**
 * The two bodies the docUpload step takes (docs/architecture.md, "Wire details"): form A, a JSON manifest of
 * the files (their bytes follow to per-file upload URLs), or form B, the files themselves as
 * multipart/form-data.
 */
export type DocUploadForm = 'manifest' | 'multipart';

export const DOC_UPLOAD_CONTENT_TYPES = 'application/json or multipart/form-data';

/** The form a Content-Type header selects; undefined for anything else (400 invalidRequest). */
export function docUploadForm(contentType: string | undefined): DocUploadForm | undefined {
  // Parameters (charset, boundary) do not choose the form; the parsers read them.
  const mediaType = contentType?.split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType === 'application/json') return 'manifest';
  if (mediaType === 'multipart/form-data') return 'multipart';
  return undefined;
}
