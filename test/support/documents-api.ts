import type { ProgramsApi, Reply } from './programs-api';

/** Small files whose bytes are what their names say (file-type recognises them from the first bytes). */
export const sampleFiles = {
  png: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  pdf: Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'),
  text: Buffer.from('just some text, not an image at all\n'.repeat(4)),
};

export interface UploadFile {
  name: string;
  type: string;
  bytes: Buffer;
}

/**
 * Document upload through the gateway as a client does it. URLs in responses are built on the configured
 * public base; `local` maps them to the address the test process can reach.
 */
export function documentsApi(api: ProgramsApi, local: (url: string) => string) {
  async function send(method: string, url: string, init: RequestInit = {}): Promise<Reply> {
    const res = await fetch(local(url), { method, ...init });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }
  /** Form A: the manifest to the docUpload submissionUrl. */
  const manifest = (submissionUrl: string, files: UploadFile[]) =>
    send('POST', submissionUrl, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        files: files.map((f) => ({ fileName: f.name, mimeType: f.type, fileSize: f.bytes.length })),
      }),
    });
  /** Form A: one file's bytes to its uploadUrl (no token). */
  const put = (uploadUrl: string, file: UploadFile) =>
    send('PUT', uploadUrl, { headers: { 'content-type': file.type }, body: file.bytes });
  /** Form B: the files as multipart parts file1, file2, ... */
  const multipart = (
    submissionUrl: string,
    files: UploadFile[],
    names = files.map((_, i) => `file${i + 1}`),
  ) => {
    const form = new FormData();
    files.forEach((f, i) => form.append(names[i]!, new Blob([f.bytes], { type: f.type }), f.name));
    return send('POST', submissionUrl, { body: form });
  };
  const complete = (submissionUrl: string) => send('POST', submissionUrl);
  const get = (url: string) => send('GET', url);
  const reviews = (status = 'pending') => api.admin('GET', `/reviews?status=${status}&limit=100`);
  const review = (reviewId: string) => api.admin('GET', `/reviews/${reviewId}`);
  const decide = (reviewId: string, decision: 'approve' | 'reject', rejectionReasons: string[] = []) =>
    api.admin('POST', `/reviews/${reviewId}/decision`, { body: { decision, rejectionReasons } });
  return { send, manifest, put, multipart, complete, get, reviews, review, decide };
}
