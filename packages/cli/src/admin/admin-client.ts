import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';

/** Where the admin API is and the operator token to call it with. */
export interface AdminTarget {
  baseUrl: string;
  token: string;
}

/** A non-2xx answer of the admin API; the CLI prints its body and exits 1. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly method: string,
    readonly url: string,
  ) {
    super(`HTTP ${status} from ${method} ${url}`);
  }
}

const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Resolves the target from flags, then the environment: ELIGO_ADMIN_URL (else ELIGO_PUBLIC_BASE_URL, else the
 * local default port) and ELIGO_ADMIN_TOKEN (else the token `npm start` generated in the data dir).
 */
export function resolveAdminTarget(
  flags: { url?: string; token?: string },
  env: Record<string, string | undefined>,
): AdminTarget {
  const baseUrl = (
    flags.url ??
    env.ELIGO_ADMIN_URL ??
    env.ELIGO_PUBLIC_BASE_URL ??
    `http://localhost:${env.ELIGO_HTTP_PORT ?? '8080'}`
  ).replace(/\/+$/, '');
  const token = flags.token ?? env.ELIGO_ADMIN_TOKEN ?? tokenFromDataDir(env.ELIGO_DATA_DIR ?? './.eligo');
  if (!token) {
    throw new Error(
      'no operator token: set ELIGO_ADMIN_TOKEN (or pass --token); `npm start` keeps a generated one in ' +
        '<ELIGO_DATA_DIR>/admin-token',
    );
  }
  return { baseUrl, token };
}

function tokenFromDataDir(dataDir: string): string | undefined {
  const file = join(resolve(dataDir), 'admin-token');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
}

/** One call to /rest/admin/v1; resolves with the parsed JSON body (undefined for 204). */
export async function adminRequest(
  target: AdminTarget,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<unknown> {
  return call(target, method, path, {
    headers: {
      authorization: `Bearer ${target.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

/**
 * Streams a file as the body of one call (the import endpoints read it as it arrives, so a file of any size
 * is never held in memory on either side). No time-out: a large import takes as long as it takes.
 */
export async function adminUpload(
  target: AdminTarget,
  path: string,
  file: string,
  contentType: string,
  method: 'POST' | 'PUT' = 'POST',
): Promise<unknown> {
  const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  return call(target, method, path, {
    headers: { authorization: `Bearer ${target.token}`, 'content-type': contentType },
    body,
    // Required by fetch for a streamed request body.
    duplex: 'half',
  } as RequestInit);
}

/**
 * One fetch and its answer. Errors name the method or URL and the cause; never the token, which fetch may
 * quote (an invalid header value) and which is masked wherever it appears.
 */
async function call(target: AdminTarget, method: string, path: string, init: RequestInit): Promise<unknown> {
  const url = `${target.baseUrl}/rest/admin/v1${path}`;
  const masked = (text: string) => (target.token ? text.split(target.token).join('***') : text);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { ...init, method });
  } catch (err) {
    throw new Error(masked(`could not reach ${url}: ${failureCause(err)}`), { cause: err });
  }
  try {
    text = await response.text();
  } catch (err) {
    throw new Error(masked(`${method} ${url}: the answer broke off: ${failureCause(err)}`), { cause: err });
  }
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) throw new AdminApiError(response.status, parsed, method, masked(url));
  return parsed;
}

/**
 * Why a fetch failed. undici throws `TypeError: fetch failed` and puts the socket, DNS or TLS error in `cause`
 * (`connect ECONNREFUSED 127.0.0.1:8080`); our time-out aborts with a TimeoutError. Read by shape, not
 * instanceof: fetch's errors may come from another realm (jest's tests run in one).
 */
export function failureCause(err: unknown): string {
  const { name, message, cause } = fields(err);
  if (name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  return describe(message === 'fetch failed' && cause !== undefined ? cause : err);
}

function describe(err: unknown): string {
  const { name, message, code, errors } = fields(err);
  // Node tries every address of a name (localhost: ::1 and 127.0.0.1) and then throws an AggregateError with
  // an empty message: the reasons are in its errors.
  if (!message && errors && errors.length > 0) return [...new Set(errors.map(describe))].join('; ');
  if (!message) return code ?? name ?? String(err);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

function fields(err: unknown): {
  name?: string;
  message?: string;
  code?: string;
  cause?: unknown;
  errors?: unknown[];
} {
  if (typeof err !== 'object' || err === null) return { message: String(err) };
  const e = err as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    name: text(e.name),
    message: text(e.message),
    code: text(e.code),
    cause: e.cause,
    errors: Array.isArray(e.errors) ? e.errors : undefined,
  };
}
