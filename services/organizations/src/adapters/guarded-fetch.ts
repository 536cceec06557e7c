import http from 'node:http';
import https from 'node:https';
import {
  BlockedAddressError,
  GrpcCallError,
  guardedLookup,
  type AllowCidrs,
  type CallBreaker,
} from '@eligo/runtime';
import { addressProblem } from '../domain/sso-settings';

type CustomFetch = import('openid-client').CustomFetch;
type FetchOptions = Parameters<CustomFetch>[1];

/**
 * Why a call to a provider failed, in words that name no address and no token: the reason a FAILED sign-on
 * or an UNAVAILABLE start gives.
 */
export class ProviderUnreachable extends Error {}

export interface GuardedFetchOptions {
  /** ELIGO_WEBHOOK_ALLOW_CIDRS. */
  allowCidrs: AllowCidrs;
  /** The provider's breaker: calls that fail to connect, time out or answer 5xx count against it. */
  breaker: CallBreaker;
  /** Longest answer read (discovery, keys, tokens are small); a longer one fails the call. */
  maxResponseBytes?: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** A 5xx answer, thrown inside the breaker so that it counts, then answered as it came. */
class ServerFailed extends Error {
  constructor(readonly response: Response) {
    super(`the provider answered ${response.status}`);
  }
}

/**
 * The fetch openid-client makes its calls with (its customFetch hook): node:http(s) with the webhooks' guarded
 * lookup, so that the address judged is the address connected to (no DNS rebinding), a fresh connection per
 * call (every one goes through the lookup), the address rules of domain/sso-settings.ts for every URL (the
 * provider's discovery names its other endpoints), redirects never followed (the library asks for `manual`),
 * and the answer's size bounded. The library's timeout arrives as `signal`.
 */
export function guardedFetch(options: GuardedFetchOptions): CustomFetch {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return async (url, init) => {
    try {
      return await options.breaker.run(async () => {
        const response = await send(new URL(url), init, options.allowCidrs, maxBytes);
        if (response.status >= 500) throw new ServerFailed(response);
        return response;
      });
    } catch (err) {
      if (err instanceof ServerFailed) return err.response;
      if (err instanceof ProviderUnreachable) throw err;
      // The breaker's own refusal: open (UNAVAILABLE), or shut down with the module.
      if (err instanceof GrpcCallError)
        throw new ProviderUnreachable('the provider failed too often lately: not called for a while');
      throw new ProviderUnreachable('the call to the provider failed');
    }
  };
}

function send(url: URL, init: FetchOptions, allow: AllowCidrs, maxBytes: number): Promise<Response> {
  const refused = addressProblem(url, allow);
  if (refused) return Promise.reject(new ProviderUnreachable(`the provider's URL ${refused}`));
  const body = bodyOf(init.body);
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (reason: string) => {
      if (settled) return;
      settled = true;
      request.destroy();
      reject(new ProviderUnreachable(reason));
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: init.method,
      headers: {
        ...init.headers,
        ...(body === undefined ? {} : { 'content-length': String(body.length) }),
      },
      agent: false,
      signal: init.signal,
      lookup: guardedLookup(allow, 'the provider host'),
    });
    request.on('error', (error) => {
      if (init.signal?.aborted) fail('the provider did not answer in time');
      else if (error instanceof BlockedAddressError) fail(error.message);
      else fail(`could not connect to the provider (${codeOf(error)})`);
    });
    request.on('response', (answer) => {
      const chunks: Buffer[] = [];
      let received = 0;
      answer.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) fail('the provider answered more than we read');
        else chunks.push(chunk);
      });
      answer.on('error', () => fail('the connection to the provider broke'));
      answer.on('end', () => {
        if (settled) return;
        settled = true;
        resolve(responseOf(answer, Buffer.concat(chunks)));
      });
    });
    request.on('close', () => fail('the provider closed the connection without an answer'));
    request.end(body);
  });
}

/** The bodies openid-client sends: form parameters (token requests) or nothing (GETs). */
function bodyOf(body: FetchOptions['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  throw new ProviderUnreachable('a streamed request body is not supported');
}

function responseOf(answer: http.IncomingMessage, body: Buffer): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2)
    headers.append(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
  const status = answer.statusCode ?? 502;
  const empty = status === 204 || status === 304 || body.length === 0;
  return new Response(empty ? null : body, { status, statusText: answer.statusMessage ?? '', headers });
}

/** Only the error's code: Node's messages name the address connected to. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}
