import { restV2Client, type Schemas } from '@eligo/client';

export type Verification = Schemas['VerificationResponse'];
export type Organization = Schemas['Organization'];
type DocUploadResponse = Schemas['DocUploadResponse'];

/** What a call gave: the verification (also after a recoverable 400, which answers it with errorIds) or a failure. */
export type Outcome = { verification: Verification } | { failure: Failure };
export interface Failure {
  status: number;
  errorIds: string[];
}

// Same origin: the page is served by the Eligo it talks to, so every call is relative to it.
const api = restV2Client({ baseUrl: window.location.origin });

/**
 * URLs in answers are absolute, built from Eligo's public base URL; the page calls the same paths on its own
 * origin (its CSP allows no other), which is the same server.
 */
export function samePath(url: string): string {
  const parsed = new URL(url, window.location.origin);
  return `${parsed.pathname}${parsed.search}`;
}

function outcome(result: { data?: unknown; error?: unknown; response: Response }): Outcome {
  const body = (result.data ?? result.error) as (Partial<Verification> & { errorIds?: string[] }) | undefined;
  if (body && typeof body.verificationId === 'string' && typeof body.currentStep === 'string')
    return { verification: body as Verification };
  return { failure: { status: result.response.status, errorIds: body?.errorIds ?? [] } };
}

async function guarded(call: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await call();
  } catch {
    return { failure: { status: 0, errorIds: [] } }; // the network failed: the page offers a retry
  }
}

export const startVerification = (programId: string, trackingId?: string, locale?: string) =>
  guarded(async () =>
    outcome(
      await api.POST('/verification', {
        body: { programId, ...(trackingId ? { trackingId } : {}), ...(locale ? { locale } : {}) },
      }),
    ),
  );

export const readVerification = (verificationId: string) =>
  guarded(async () =>
    outcome(await api.GET('/verification/{verificationId}', { params: { path: { verificationId } } })),
  );

export async function searchOrganizations(
  programId: string,
  name: string,
  signal: AbortSignal,
): Promise<Organization[]> {
  const { data } = await api.GET('/program/{programId}/organization', {
    params: { path: { programId }, query: { name } },
    signal,
  });
  return data ?? [];
}

/**
 * POST to a step by its name (the collect steps are many paths of one shape: the typed client names each; the
 * body's type is the step's subject, checked by the server against the same document).
 */
export const submitStep = (verificationId: string, step: string, body: unknown) =>
  guarded(async () => {
    const path =
      `/verification/{verificationId}/step/${step}` as '/verification/{verificationId}/step/collectStudentPersonalInfo';
    return outcome(await api.POST(path, { params: { path: { verificationId } }, body: body as never }));
  });

/** DELETE a step the person may skip (social security number, SSO): the answer is the next step. */
export const skipStep = (verificationId: string, step: 'collectSocialSecurityNumber' | 'sso') =>
  guarded(async () => {
    const path = `/verification/{verificationId}/step/${step}` as '/verification/{verificationId}/step/sso';
    return outcome(await api.DELETE(path, { params: { path: { verificationId } } }));
  });

export interface FileProgress {
  file: File;
  /** 0 to 1. */
  done: number;
}

/**
 * Form A of the document upload: the manifest to the step's submissionUrl, each file PUT to its own upload
 * URL (XMLHttpRequest, for progress events), then completion. A refused manifest or file answers the step with
 * its errorIds.
 */
export async function uploadDocuments(
  submissionUrl: string,
  files: File[],
  onProgress: (index: number, done: number) => void,
): Promise<Outcome> {
  return guarded(async () => {
    const manifest = await fetch(samePath(submissionUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        files: files.map((f) => ({ fileName: f.name, mimeType: f.type, fileSize: f.size })),
      }),
    });
    const answer = (await manifest.json()) as DocUploadResponse | Verification;
    if (!manifest.ok || !('documents' in answer)) return outcome({ data: answer, response: manifest });
    for (const [index, document] of answer.documents.entries()) {
      if (!document.uploadUrl) return { failure: { status: 400, errorIds: [] } };
      const status = await put(samePath(document.uploadUrl), files[index]!, (done) =>
        onProgress(index, done),
      );
      if (status < 200 || status >= 300) return { failure: { status, errorIds: ['unsupportedDocMimeType'] } };
    }
    if (!answer.submissionUrl) return { failure: { status: 500, errorIds: [] } };
    const completed = await fetch(samePath(answer.submissionUrl), { method: 'POST' });
    return outcome({ data: await completed.json(), response: completed });
  });
}

function put(url: string, file: File, onProgress: (done: number) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('content-type', file.type);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      onProgress(1);
      resolve(xhr.status);
    };
    xhr.onerror = () => reject(new Error('upload failed'));
    xhr.send(file);
  });
}
