import { status as Status } from '@grpc/grpc-js';

/**
 * Whether a handler failure is an outage that retrying will outlive (the database, a peer service or the
 * network gone for a while) rather than something about the event itself. Outages are retried for as long
 * as they last and never park an event: parking is for the event that would fail forever.
 */
export function isTransientFailure(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  if (typeof e.code === 'number') return transientGrpcCodes.has(e.code);
  if (typeof e.code === 'string') {
    if (transientNodeCodes.has(e.code)) return true;
    // SQLSTATE: 08 connection, 40 rollback (serialization, deadlock), 53 resources, 57 operator
    // intervention (shutdown, cannot connect now), 58 system error; 55P03 lock not available.
    if (/^[0-9A-Z]{5}$/.test(e.code)) return /^(08|40|53|57|58)/.test(e.code) || e.code === '55P03';
  }
  if (e.name === 'KnexTimeoutError' || e.name === 'TimeoutError') return true;
  // The object store answering 5xx (S3 SDK errors carry the HTTP status).
  if ((e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  // node-postgres reports a connection that died mid-query with a plain Error.
  return typeof e.message === 'string' && /Connection terminated|connection (is )?closed/i.test(e.message);
}

const transientGrpcCodes = new Set<number>([
  Status.UNAVAILABLE,
  Status.DEADLINE_EXCEEDED,
  Status.RESOURCE_EXHAUSTED,
  Status.ABORTED,
  Status.CANCELLED,
]);

const transientNodeCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
