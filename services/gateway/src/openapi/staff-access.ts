import { rolesAllowed } from '../endpoints/admin-roles';
import { errorResponse } from './refs';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The security requirement of a staff session (components.ts, `staffSession`). */
export const STAFF_SESSION = 'staffSession';
/** The extension that names the staff roles of an admin operation (endpoints/admin-roles.ts). */
export const STAFF_ROLES_EXTENSION = 'x-staff-roles';

export const STAFF_FORBIDDEN =
  'A staff session whose role may not call the operation (errorIds [insufficientRole]; the roles that may ' +
  'are under x-staff-roles), or an unsafe method (POST, PUT, PATCH, DELETE) without the X-CSRF-Token of the ' +
  'session (errorIds [invalidRequest])';

/**
 * What every operation of the admin API (tag `admin`) also states since staff have identities
 * (docs/operations.md, "Staff identities"): a staff session is accepted besides the operator token, the
 * staff roles that may call it (x-staff-roles, from endpoints/admin-roles.ts), and the 403 a session is
 * refused with. Added to the whole document, as the rate limits and the gateway's own answers are.
 */
export function withStaffAccess(shared: Record<string, Json>): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const [path, own] of Object.entries(shared)) {
    const item: Json = (paths[path] = { ...own });
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation || !(operation.tags as string[] | undefined)?.includes('admin')) continue;
      const responses = operation.responses as Record<string, Json>;
      if (responses['403'])
        throw new Error(`${method} ${path}: an admin operation declares a 403 of its own`);
      item[method] = {
        ...operation,
        security: [...((operation.security as Json[] | undefined) ?? []), { [STAFF_SESSION]: [] }],
        responses: { ...responses, '403': errorResponse(STAFF_FORBIDDEN, 'ErrorResponse') },
        [STAFF_ROLES_EXTENSION]: [...rolesAllowed(String(operation.operationId))],
      };
    }
  }
  return paths;
}
