import type { Request, Response } from 'express';
import type { OperatorPrincipal, StaffPrincipal } from '../auth/principal';
import type { StaffAccess } from './staff-access';

const MAX_TARGET_LENGTH = 64;

/** Methods that change something: each such call of the admin API is written to the audit log. */
export const UNSAFE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Reads that are POSTs only to keep personal data out of the URL (the verification search takes an email in
 * its body): they change nothing, and the audit log is the record of changes, as it leaves out every GET.
 * A staff session still sends its X-CSRF-Token with them (auth/staff-guard.ts goes by the method).
 */
export const READS_BY_POST: ReadonlySet<string> = new Set(['adminSearchVerifications']);

/**
 * Writes the audit entry of an admin API call once its status is known, before the answer leaves (res.end
 * waits for the insert), so that whoever reads the log after the answer finds the entry. What is written is
 * what the route table left (endpoints/route-table.ts): the operationId, the route template and the path
 * parameters; never a body, a query or personal data. A call that matched no operation (an unknown path) is
 * not an action and is not written, nor is a read by POST (READS_BY_POST).
 */
export function auditWhenAnswered(
  req: Request,
  res: Response,
  principal: OperatorPrincipal | StaffPrincipal,
  staff: Pick<StaffAccess, 'record'>,
): void {
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  let written = false;
  res.end = ((...args: unknown[]) => {
    const action = res.locals.operationId as string | undefined;
    if (written || action === undefined || READS_BY_POST.has(action)) return end(...args);
    written = true;
    void staff
      .record({
        actor_kind: principal.kind,
        actor_id: principal.kind === 'staff' ? principal.staffId : null,
        action,
        method: req.method,
        route: String(res.locals.route ?? ''),
        targets: auditTargets(res),
        status: res.statusCode,
      })
      .finally(() => end(...args));
    return res;
  }) as Response['end'];
}

/** The path parameters the route table kept, and any id a handler added (the staff member it created). */
function auditTargets(res: Response): Record<string, string> {
  const params = (res.locals.pathParams ?? {}) as Record<string, unknown>;
  const added = (res.locals.auditTargets ?? {}) as Record<string, unknown>;
  // Ids are short; a path segment is whatever a client sent, so it is cut to the length of any of ours.
  return Object.fromEntries(
    Object.entries({ ...params, ...added })
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([name, value]) => [name, value.slice(0, MAX_TARGET_LENGTH)]),
  );
}
