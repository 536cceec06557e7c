import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { BlockedAddressError, blockedRange, guardedLookup, type AllowCidrs } from '@eligo/runtime';
import { Webhook } from 'standardwebhooks';
import type { InstantSource, SourceInput, SourceVerdict } from '../../domain/instant-sources';
import type { HttpSourceSetting } from '../../domain/program';

/**
 * The HTTP instant-match source: Eligo POSTs a minimal subject to the business's own endpoint, signed per
 * Standard Webhooks with the program's secret (the library the notifier signs webhooks with), and reads a
 * signed yes/no. The answer must carry the request's webhook-id as its own (so that a recorded "yes" cannot
 * be replayed for another request) and a valid signature with the same secret over its body; anything else is
 * `unavailable`. The address rules are the webhooks' (@eligo/runtime's address policy and guarded lookup).
 *
 * Request body: {"type":"eligo.instantMatch","programId","segment","subSegment","subject":{...}} with only
 * the subject's fields the form took (names, email, birth date, member or employee number, organization
 * {id, name}).
 * Answer: 200 with {"eligible": true|false}, headers webhook-id (the request's), webhook-timestamp,
 * webhook-signature.
 */
export interface HttpSourceOptions {
  /** Non-public ranges that may still be called (ELIGO_WEBHOOK_ALLOW_CIDRS): tests, private deployments. */
  allowCidrs: AllowCidrs;
  /** Longest answer read; a longer one is unavailable. */
  maxResponseBytes?: number;
  now?: () => Date;
}

export const HTTP_SOURCE_USER_AGENT = 'Eligo-InstantMatch/1.0';
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024;

/** The subject fields an HTTP source is sent, when the form took them (non-empty). */
const SENT_FIELDS = ['firstName', 'lastName', 'email', 'birthDate', 'memberId', 'employeeId'] as const;

export function httpSource(setting: HttpSourceSetting, options: HttpSourceOptions): InstantSource {
  return {
    method: 'HTTP_SOURCE',
    check: (input, signal) => ask(setting, options, input, signal),
  };
}

/** The request body: the minimal subject (no metadata, address, identifiers, locale or client fields). */
export function requestBody(input: SourceInput): string {
  const { subject, program } = input;
  const sent: Record<string, unknown> = {};
  for (const field of SENT_FIELDS) if (subject[field]) sent[field] = subject[field];
  const organization = subject.organization;
  const organizationId = organization?.id || subject.universityId || 0;
  if (organizationId || organization?.name)
    sent.organization = { id: organizationId, name: organization?.name ?? '' };
  return JSON.stringify({
    type: 'eligo.instantMatch',
    programId: program.programId,
    segment: program.segment,
    subSegment: program.subSegment,
    subject: sent,
  });
}

async function ask(
  setting: HttpSourceSetting,
  options: HttpSourceOptions,
  input: SourceInput,
  signal: AbortSignal,
): Promise<SourceVerdict> {
  const url = checkedUrl(setting.url, options.allowCidrs);
  if (typeof url === 'string') return unavailable(url);
  let webhook: Webhook;
  try {
    webhook = new Webhook(setting.secret);
  } catch {
    return unavailable('the secret is not valid');
  }
  const id = `im_${randomBytes(16).toString('hex')}`;
  const now = options.now?.() ?? new Date();
  const body = requestBody(input);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': HTTP_SOURCE_USER_AGENT,
    'webhook-id': id,
    // The same whole seconds that were signed (standardwebhooks floors the date).
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': webhook.sign(id, now, body),
  };
  const answer = await post(url, headers, body, signal, options);
  if ('failed' in answer) return unavailable(answer.failed);
  if (answer.status !== 200) return unavailable(`answered ${answer.status}`);
  return judge(webhook, id, answer);
}

const unavailable = (reason: string): SourceVerdict => ({ kind: 'unavailable', reason });

/** The answer's verdict: only a correctly signed answer to this request, with a boolean `eligible`, counts. */
function judge(webhook: Webhook, id: string, answer: Answer): SourceVerdict {
  const header = (name: string) => {
    const value = answer.headers[name];
    return typeof value === 'string' ? value : '';
  };
  if (header('webhook-id') !== id) return unavailable('the answer is not to this request (webhook-id)');
  try {
    webhook.verify(answer.body, {
      'webhook-id': id,
      'webhook-timestamp': header('webhook-timestamp'),
      'webhook-signature': header('webhook-signature'),
    });
  } catch {
    // The library's message says which check failed, never anything of the body.
    return unavailable('the answer is not signed with the program secret');
  }
  let eligible: unknown;
  try {
    eligible = (JSON.parse(answer.body.toString('utf8')) as { eligible?: unknown } | null)?.eligible;
  } catch {
    return unavailable('the answer is not JSON');
  }
  if (typeof eligible !== 'boolean') return unavailable('the answer has no boolean eligible');
  return eligible ? { kind: 'match' } : { kind: 'noMatch' };
}

/** The URL rules checked before connecting (as for webhooks); the reason for refusing, or the URL. */
function checkedUrl(text: string, allow: AllowCidrs): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'the source URL is not valid';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'the source URL must use http or https';
  if (url.username !== '' || url.password !== '') return 'the source URL must not contain credentials';
  // Node does not call `lookup` for IP literals, so they are judged here.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const range = isIP(host) === 0 ? undefined : blockedRange(host, allow);
  return range === undefined ? url : `the source host is a blocked address (${range})`;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One POST; never rejects: a failure is { failed } with a reason that names no address. */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  options: HttpSourceOptions,
): Promise<Answer | { failed: string }> {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Answer | { failed: string }) => {
      if (settled) return;
      settled = true;
      request.destroy();
      resolve(result);
    };
    // agent: false: a fresh connection each time, so that every call goes through the guarded lookup.
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers,
      agent: false,
      signal,
      lookup: guardedLookup(options.allowCidrs, 'the source host'),
    });
    request.on('error', (error) =>
      finish({
        failed: error instanceof BlockedAddressError ? error.message : `connection failed (${codeOf(error)})`,
      }),
    );
    request.on('close', () => finish({ failed: 'connection closed without an answer' }));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) finish({ failed: 'the answer is too long' });
        else chunks.push(chunk);
      });
      response.on('end', () =>
        finish({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', () => undefined); // 'close' follows and settles.
      response.on('close', () => finish({ failed: 'connection closed before the answer was complete' }));
    });
    request.end(body);
  });
}

/** Only the error's code: Node's messages name the address connected to. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}
