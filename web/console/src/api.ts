import { adminClient, type AdminPaths } from '@eligo/client';

/**
 * The admin API as the console calls it: same origin (the console is served by the Eligo it administers), the
 * staff session's cookie (sent by the browser; HttpOnly, the page never sees it) and, on every write, the
 * session's X-CSRF-Token (services/gateway/src/auth/staff-guard.ts). Every call settles to a Result: the
 * pages show a failure (a 403 of the role, a 409, a network failure) instead of throwing.
 */

/** What a refused or failed call gave: status 0 when the network failed. */
export interface Failure {
  status: number;
  errorIds: string[];
  message: string;
}
export type Result<T> = { ok: true; data: T } | { ok: false; failure: Failure };

/** The admin API's path prefix on this origin. */
export const ADMIN_BASE = '/rest/admin/v1';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

let csrfToken = '';
const sessionLost = new Set<() => void>();

/** The session's CSRF token, set at sign-in (and after a reload, from GET /console/session). */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}
export function csrfHeaders(method: string): Record<string, string> {
  return SAFE_METHODS.has(method.toUpperCase()) || !csrfToken ? {} : { 'X-CSRF-Token': csrfToken };
}

/** Called when the admin API answers 401: the session ended (expired, idle, signed out elsewhere). */
export function onSessionLost(listener: () => void): () => void {
  sessionLost.add(listener);
  return () => sessionLost.delete(listener);
}

export const admin = adminClient({ baseUrl: window.location.origin });
admin.use({
  onRequest({ request }) {
    for (const [name, value] of Object.entries(csrfHeaders(request.method))) request.headers.set(name, value);
    return request;
  },
});

/** The failure an answer's status and body describe. */
export function describeFailure(status: number, body: unknown): Failure {
  const b = (body ?? {}) as { errorIds?: unknown; systemErrorMessage?: unknown };
  return {
    status,
    errorIds: Array.isArray(b.errorIds) ? b.errorIds.map(String) : [],
    message: typeof b.systemErrorMessage === 'string' ? b.systemErrorMessage : '',
  };
}

/** A failure of the admin API; a 401 tells the session's listeners. */
export function failureOf(status: number, body: unknown): Failure {
  if (status === 401) for (const listener of sessionLost) listener();
  return describeFailure(status, body);
}

export const NETWORK: Failure = { status: 0, errorIds: [], message: 'Eligo could not be reached' };

/** An openapi-fetch call, settled. */
export async function settle<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<Result<T>> {
  try {
    const { data, error, response } = await call;
    if (response.ok) return { ok: true, data: data as T };
    return { ok: false, failure: failureOf(response.status, error) };
  } catch {
    return { ok: false, failure: NETWORK };
  }
}

type Query = Record<string, string | number | undefined>;

/** A query string of the values that are set (an empty parameter is a 400 of the admin API). */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * URLs in answers are absolute, built from Eligo's public base URL; the console loads the same paths from its
 * own origin (its CSP allows no other), which is the same server.
 */
export function samePath(url: string): string {
  const parsed = new URL(url, window.location.origin);
  return `${parsed.pathname}${parsed.search}`;
}

/** The JSON body of an operation's success (200 or 201), from the typed client's document. */
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Success<Op> = Op extends { responses: infer R }
  ? R extends { 200: infer A }
    ? Json<A>
    : R extends { 201: infer C }
      ? Json<C>
      : R extends { 202: infer D }
        ? Json<D>
        : never
  : never;
export type AdminBody<P extends keyof AdminPaths, M extends 'get' | 'post' | 'patch'> = Success<
  NonNullable<AdminPaths[P][M]>
>;

export type ReviewDetail = AdminBody<'/reviews/{reviewId}', 'get'>;
export type Review = AdminBody<'/reviews/{reviewId}/decision', 'post'>;
export type AdminVerification = AdminBody<'/verifications/{verificationId}', 'get'>;
export type AddSchoolRequestPage = AdminBody<'/addSchoolRequests', 'get'>;
export type AddSchoolRequest = AddSchoolRequestPage['requests'][number];
export type StaffPage = AdminBody<'/staff', 'get'>;
export type AuditPage = AdminBody<'/audit', 'get'>;
export type ProgramConfiguration = AdminBody<'/programs/{programId}', 'get'>;
export type WebhookDeliveryPage = AdminBody<'/programs/{programId}/webhook/deliveries', 'get'>;
export type WebhookDelivery = WebhookDeliveryPage['deliveries'][number];
export type AcceptBody = NonNullable<
  AdminPaths['/addSchoolRequests/{requestId}/accept']['post']['requestBody']
>['content']['application/json'];
export type ProgramPatch = NonNullable<
  AdminPaths['/programs/{programId}']['patch']['requestBody']
>['content']['application/json'];
export interface AuditFilters {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
}

export const getReview = (reviewId: string) =>
  settle(admin.GET('/reviews/{reviewId}', { params: { path: { reviewId } } }));

export const decideReview = (reviewId: string, decision: 'approve' | 'reject', rejectionReasons: string[]) =>
  settle(
    admin.POST('/reviews/{reviewId}/decision', {
      params: { path: { reviewId } },
      body: decision === 'approve' ? { decision } : { decision, rejectionReasons },
    }),
  );

export const getVerification = (verificationId: string) =>
  settle(admin.GET('/verifications/{verificationId}', { params: { path: { verificationId } } }));

export const listAddSchoolRequests = (status: 'PENDING' | 'ACCEPTED' | 'DECLINED', pageToken?: string) =>
  settle(
    admin.GET('/addSchoolRequests', {
      params: { query: { status, pageSize: 50, ...(pageToken ? { pageToken } : {}) } },
    }),
  );

export const acceptAddSchoolRequest = (requestId: string, body: AcceptBody) =>
  settle(admin.POST('/addSchoolRequests/{requestId}/accept', { params: { path: { requestId } }, body }));

export const declineAddSchoolRequest = (requestId: string, reason: string) =>
  settle(
    admin.POST('/addSchoolRequests/{requestId}/decline', {
      params: { path: { requestId } },
      body: reason.trim() ? { reason } : {},
    }),
  );

export const listStaff = (cursor?: string) =>
  settle(admin.GET('/staff', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }));

const setOnly = (filters: AuditFilters) =>
  Object.fromEntries(
    Object.entries(filters).filter(([, v]) => typeof v === 'string' && v !== ''),
  ) as AuditFilters;

export const listAudit = (filters: AuditFilters, cursor?: string) =>
  settle(
    admin.GET('/audit', {
      params: { query: { ...setOnly(filters), limit: 50, ...(cursor ? { cursor } : {}) } },
    }),
  );

/** The NDJSON export of the same filters: a plain link (a GET with the session cookie). */
export const auditExportUrl = (filters: AuditFilters) =>
  `${ADMIN_BASE}/audit/export${queryString({ ...setOnly(filters) })}`;

export const getProgram = (programId: string) =>
  settle(admin.GET('/programs/{programId}', { params: { path: { programId } } }));

export const updateProgram = (programId: string, body: ProgramPatch) =>
  settle(admin.PATCH('/programs/{programId}', { params: { path: { programId } }, body }));
