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

/**
 * How long an idle connection to a receiver is kept for the next webhook: below the usual keep-alive of servers
 * (Node's 5 s, proxies' 60 s), so that we close it before they do.
 */
const IDLE_CONNECTION_MS = 4_000;

interface Agents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * Sends single attempts with node:http(s); retrying is the caller's business (domain/retry-schedule.ts).
 * Connections are kept alive between webhooks to the same receiver: a new one is opened only through the
 * guarded lookup, so a reused connection goes to an address that was checked when it was opened.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const settings: Required<WebhookSenderOptions> = {
    userAgent: DEFAULT_USER_AGENT,
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
    ...options,
  };
  const agents: Agents = {
    http: new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
    https: new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  };
  return { send: (attempt) => send(attempt, settings, agents) };
}

function send(
  attempt: WebhookAttempt,
  options: Required<WebhookSenderOptions>,
  agents: Agents,
  /** A kept connection that the receiver had closed: the attempt goes again, on a new connection. */
  fresh = false,
): Promise<AttemptResult> {
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
    const finish = (verdict: Verdict, complete = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Cuts an answer that is still coming (too long, or the time is up): nothing more is read. A complete
      // answer leaves its connection to the agent, for the next webhook.
      if (!complete) request?.destroy();
      resolve(result(verdict, statusCode));
    };
    const timer = setTimeout(
      () => finish({ outcome: 'failed', error: `no answer within ${options.timeoutMs / 1000} s` }),
      options.timeoutMs,
    );
    let request: http.ClientRequest | undefined;
    try {
      // A new connection (from the agent, or `fresh`) is opened through the guarded lookup.
      const agent = fresh ? false : checked.protocol === 'https:' ? agents.https : agents.http;
      request = (checked.protocol === 'https:' ? https : http).request(checked, {
        method: 'POST',
        headers,
        agent,
        lookup: guardedLookup(options.allowCidrs),
      });
    } catch (error) {
      // Node refuses header values it cannot send (a bad webhook id): our fault, retrying would not help.
      finish({ outcome: 'refused', error: `the request could not be built (${codeOf(error)})` });
      return;
    }
    request.on('error', (error) => {
      // A kept connection the receiver closed as we reused it (a race of idle timeouts): nothing was answered,
      // so the webhook goes again at once on a new connection (receivers deduplicate by webhook-id anyway).
      if (!settled && request?.reusedSocket && statusCode === 0 && codeOf(error) === 'ECONNRESET') {
        settled = true;
        clearTimeout(timer);
        resolve(send(attempt, options, agents, true));
        return;
      }
      finish(
        error instanceof BlockedAddressError
          ? { outcome: 'refused', error: error.message }
          : { outcome: 'failed', error: `connection failed (${codeOf(error)})` },
      );
    });
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
      response.on('end', () => finish(verdict, true));
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
