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
  ) {
    super(`HTTP ${status}`);
  }
}

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
  const response = await fetch(`${target.baseUrl}/rest/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${target.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return parseReply(response);
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
): Promise<unknown> {
  const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  const response = await fetch(`${target.baseUrl}/rest/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.token}`, 'content-type': contentType },
    body,
    // Required by fetch for a streamed request body.
    duplex: 'half',
  } as RequestInit);
  return parseReply(response);
}

async function parseReply(response: Response): Promise<unknown> {
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) throw new AdminApiError(response.status, parsed);
  return parsed;
}
