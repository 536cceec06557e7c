/**
 * The console's pages, each an address under /console (the gateway answers every one with the same shell).
 * Filters that are ids or closed lists may go in the query; personal data (an email searched for) never does.
 */
export const BASE = '/console';

export type Route =
  | { page: 'reviews'; programId?: string; segment?: string }
  | { page: 'review'; reviewId: string }
  | { page: 'addSchool' }
  | { page: 'verifications' }
  | { page: 'verification'; verificationId: string }
  | { page: 'programs'; accountId?: string }
  | { page: 'program'; programId: string }
  | { page: 'accounts' }
  | { page: 'account'; accountId: string }
  | { page: 'audit' }
  | { page: 'staff' }
  | { page: 'notFound' };

const ID = /^[0-9a-f]{24}$/;
const UUID = /^[0-9a-fA-F-]{36}$/;
const SEGMENT = /^[A-Za-z]{1,40}$/;

/** The page of a path and query under /console; /console alone is the review queue. */
export function parseRoute(pathname: string, search: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : '/';
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent);
  const query = new URLSearchParams(search);
  const [first, second, ...more] = parts;
  if (more.length > 0) return { page: 'notFound' };
  switch (first) {
    case undefined:
    case 'reviews':
      if (second === undefined) {
        const programId = query.get('programId');
        const segment = query.get('segment');
        return {
          page: 'reviews',
          ...(programId && ID.test(programId) ? { programId } : {}),
          ...(segment && SEGMENT.test(segment) ? { segment } : {}),
        };
      }
      return UUID.test(second) ? { page: 'review', reviewId: second } : { page: 'notFound' };
    case 'add-school':
      return second === undefined ? { page: 'addSchool' } : { page: 'notFound' };
    case 'verifications':
      if (second === undefined) return { page: 'verifications' };
      return ID.test(second) ? { page: 'verification', verificationId: second } : { page: 'notFound' };
    case 'programs': {
      if (second === undefined) {
        const accountId = query.get('accountId');
        return accountId && ID.test(accountId) ? { page: 'programs', accountId } : { page: 'programs' };
      }
      return ID.test(second) ? { page: 'program', programId: second } : { page: 'notFound' };
    }
    case 'accounts':
      if (second === undefined) return { page: 'accounts' };
      return ID.test(second) ? { page: 'account', accountId: second } : { page: 'notFound' };
    case 'audit':
      return second === undefined ? { page: 'audit' } : { page: 'notFound' };
    case 'staff':
      return second === undefined ? { page: 'staff' } : { page: 'notFound' };
    default:
      return { page: 'notFound' };
  }
}

/** The address of a page. */
export function hrefOf(route: Route): string {
  const q = (params: Record<string, string | undefined>) => {
    const set = Object.entries(params).filter((e): e is [string, string] => Boolean(e[1]));
    return set.length ? `?${new URLSearchParams(set).toString()}` : '';
  };
  switch (route.page) {
    case 'reviews':
      return `${BASE}/reviews${q({ programId: route.programId, segment: route.segment })}`;
    case 'review':
      return `${BASE}/reviews/${encodeURIComponent(route.reviewId)}`;
    case 'addSchool':
      return `${BASE}/add-school`;
    case 'verifications':
      return `${BASE}/verifications`;
    case 'verification':
      return `${BASE}/verifications/${encodeURIComponent(route.verificationId)}`;
    case 'programs':
      return `${BASE}/programs${q({ accountId: route.accountId })}`;
    case 'program':
      return `${BASE}/programs/${encodeURIComponent(route.programId)}`;
    case 'accounts':
      return `${BASE}/accounts`;
    case 'account':
      return `${BASE}/accounts/${encodeURIComponent(route.accountId)}`;
    case 'audit':
      return `${BASE}/audit`;
    case 'staff':
      return `${BASE}/staff`;
    case 'notFound':
      return BASE;
  }
}
