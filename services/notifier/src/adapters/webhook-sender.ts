import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { parseRetryAfter } from '../domain/retry-after';
// The guarded lookup (SSRF rule at connect time) is shared with the verification service's HTTP sources.
// A BlockedAddressError it raises ends the attempt as 'refused', not 'failed'.
import { BlockedAddressError, blockedRange, guardedLookup, type AllowCidrs } from '@eligo/runtime';
import type { AttemptResult, WebhookAttempt, WebhookSender } from '../app/ports';

export interface WebhookSenderOptions {
  /** The whole attempt: connecting, the answer's headers and its body. */
  timeoutMs: number;
  /** Non-public ranges that may still be called (ELIGO_WEBHOOK_ALLOW_CIDRS): tests, private deployments. */
  allowCidrs: AllowCidrs;
  userAgent?: string;
  /** How much of an answer's body is read (and thrown away) before the connection is cut. */
  maxResponseBytes?: number;
}

export const DEFAULT_USER_AGENT = 'Eligo-Webhooks/1.0';
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

type Verdict = Pick<AttemptResult, 'outcome' | 'error' | 'retryAfterMs'>;

/** Sends single attempts with node:http(s); retrying is the caller's business (domain/retry-schedule.ts). */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const settings: Required<WebhookSenderOptions> = {
    userAgent: DEFAULT_USER_AGENT,
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
    ...options,
  };
  return { send: (attempt) => send(attempt, settings) };
}

function send(attempt: WebhookAttempt, options: Required<WebhookSenderOptions>): Promise<AttemptResult> {
  const started = performance.now();
  const result = (verdict: Verdict, statusCode = 0): AttemptResult => ({
    ...verdict,
    statusCode,
    latencyMs: Math.round(performance.now() - started),
  });

  const checked = checkUrl(attempt, options.allowCidrs);
  if (typeof checked === 'string') return Promise.resolve(result({ outcome: 'refused', error: checked }));
  let signature: string;
  try {
    signature = new Webhook(attempt.signingSecret).sign(attempt.webhookId, attempt.timestamp, attempt.body);
  } catch {
    return Promise.resolve(result({ outcome: 'refused', error: 'the signing secret is not valid' }));
  }
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(attempt.body)),
    'user-agent': options.userAgent,
    'webhook-id': attempt.webhookId,
    // The same whole seconds that were signed (standardwebhooks floors the date).
    'webhook-timestamp': String(Math.floor(attempt.timestamp.getTime() / 1000)),
    'webhook-signature': signature,
    'x-eligo-notifier-event-type': attempt.eventType,
  };

  return new Promise((resolve) => {
    let statusCode = 0;
    let settled = false;
    const finish = (verdict: Verdict): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Also cuts an answer that is still coming (too long, or the time is up): nothing more is read.
      request?.destroy();
      resolve(result(verdict, statusCode));
    };
    const timer = setTimeout(
      () => finish({ outcome: 'failed', error: `no answer within ${options.timeoutMs / 1000} s` }),
      options.timeoutMs,
    );
    let request: http.ClientRequest | undefined;
    try {
      // agent: false: a fresh connection each time, so that every attempt goes through the guarded lookup.
      request = (checked.protocol === 'https:' ? https : http).request(checked, {
        method: 'POST',
        headers,
        agent: false,
        lookup: guardedLookup(options.allowCidrs),
      });
    } catch (error) {
      // Node refuses header values it cannot send (a bad webhook id): our fault, retrying would not help.
      finish({ outcome: 'refused', error: `the request could not be built (${codeOf(error)})` });
      return;
    }
    request.on('error', (error) =>
      finish(
        error instanceof BlockedAddressError
          ? { outcome: 'refused', error: error.message }
          : { outcome: 'failed', error: `connection failed (${codeOf(error)})` },
      ),
    );
    request.on('close', () => finish({ outcome: 'failed', error: 'connection closed without an answer' }));
    request.on('response', (response) => {
      statusCode = response.statusCode ?? 0;
      const verdict = judge(statusCode, response.headers['retry-after']);
      let received = 0;
      // The body is counted and dropped: it is the receiver's text, never stored nor shown.
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > options.maxResponseBytes) finish(verdict);
      });
      response.on('end', () => finish(verdict));
      response.on('error', () => undefined); // 'close' follows and settles.
      response.on('close', () =>
        finish({ outcome: 'failed', error: 'connection closed before the answer was complete' }),
      );
    });
    request.end(attempt.body);
  });
}

/** The URL rules checked before connecting; returns the reason for refusing, or the URL to call. */
function checkUrl(attempt: WebhookAttempt, allow: AllowCidrs): URL | string {
  let url: URL;
  try {
    url = new URL(attempt.url);
  } catch {
    return 'callback URL is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'callback URL must use http or https';
  if (attempt.requireHttps && url.protocol !== 'https:') return 'callback URL must use https';
  if (url.username !== '' || url.password !== '') return 'callback URL must not contain credentials';
  // Node does not call `lookup` for IP literals, so they are judged here. The WHATWG parser has already
  // rewritten forms like http://2130706433/ or http://0x7f.1/ to dotted IPv4.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const range = isIP(host) === 0 ? undefined : blockedRange(host, allow);
  return range === undefined ? url : `callback host is a blocked address (${range})`;
}

function judge(statusCode: number, retryAfter: string | undefined): Verdict {
  if (statusCode >= 200 && statusCode < 300) return { outcome: 'delivered' };
  if (statusCode === 410) return { outcome: 'gone', error: 'receiver answered 410 (gone)' };
  if (statusCode >= 300 && statusCode < 400)
    return { outcome: 'failed', error: `redirect not followed (${statusCode})` };
  const verdict: Verdict = { outcome: 'failed', error: `receiver answered ${statusCode}` };
  const retryAfterMs = parseRetryAfter(retryAfter);
  return retryAfterMs === undefined ? verdict : { ...verdict, retryAfterMs };
}

/** Only the error's code: Node's messages name the address connected to, which is not for programs to see. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}
