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

async function guarded<T = Outcome>(call: () => Promise<T>): Promise<T | Outcome> {
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

/** DELETE a step the person may skip (social security number, SSO, email loop): the answer is the next step. */
export const skipStep = (verificationId: string, step: 'collectSocialSecurityNumber' | 'sso' | 'emailLoop') =>
  guarded(async () => {
    const path = `/verification/{verificationId}/step/${step}` as '/verification/{verificationId}/step/sso';
    return outcome(await api.DELETE(path, { params: { path: { verificationId } } }));
  });

/** A new email-loop code: true when it is on its way (204); false when refused (too soon, too many). */
export async function resendEmailCode(verificationId: string): Promise<boolean> {
  try {
    const { response } = await api.POST('/verification/{verificationId}/step/emailLoop/retryEmail', {
      params: { path: { verificationId } },
    });
    return response.status === 204;
  } catch {
    return false;
  }
}

export interface FileProgress {
  file: File;
  /** 0 to 1. */
  done: number;
}

/** Why a file's PUT did not store it: the page stays on docUpload and says so next to the files. */
export type FileFailure = 'refused' | 'expired' | 'failed';

/** The upload's outcome: the step's (a verification or a failure), or a file that did not go through. */
export type UploadOutcome = Outcome | { fileFailure: { file: string; reason: FileFailure } };

/**
 * Form A of the document upload: the manifest to the step's submissionUrl, each file PUT to its own upload
 * URL (XMLHttpRequest, for progress events), then completion. A refused manifest or completion answers the
 * step with its errorIds; a file's PUT answers for that file only: its bytes refused (400 with the errorIds of
 * a rejected file), its link no longer valid (404 used or unknown, 410 expired: the person starts the upload
 * again, which asks for new links), or anything else (a retry may work).
 */
export async function uploadDocuments(
  submissionUrl: string,
  files: File[],
  onProgress: (index: number, done: number) => void,
): Promise<UploadOutcome> {
  return guarded<UploadOutcome>(async () => {
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
      const file = files[index]!;
      if (!document.uploadUrl) return { fileFailure: { file: file.name, reason: 'failed' } };
      const status = await put(samePath(document.uploadUrl), file, (done) => onProgress(index, done));
      if (status < 200 || status >= 300)
        return { fileFailure: { file: file.name, reason: fileFailureOf(status) } };
    }
    if (!answer.submissionUrl) return { failure: { status: 500, errorIds: [] } };
    const completed = await fetch(samePath(answer.submissionUrl), { method: 'POST' });
    return outcome({ data: await completed.json(), response: completed });
  });
}

/** What a PUT's status says about the file (services/gateway/src/routes/uploads.ts answers them). */
export function fileFailureOf(status: number): FileFailure {
  if (status === 400) return 'refused'; // the bytes are not the declared type, or not the declared size
  if (status === 404 || status === 410) return 'expired';
  return 'failed'; // 0 (network), 413, 5xx: trying again may work
}

function put(url: string, file: File, onProgress: (done: number) => void): Promise<number> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('content-type', file.type);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      onProgress(1);
      resolve(xhr.status);
    };
    // A network failure is a file that did not go through (a retry may work), not a failed page.
    xhr.onerror = () => resolve(0);
    xhr.send(file);
  });
}
