import type { RequestHandler } from 'express';
import { rolesAllowed } from '../endpoints/admin-roles';
import type { EndpointDefinition } from '../endpoints/define';
import { RestError } from '../errors';
import { csrfMatches } from '../staff/session-secrets';
import { UNSAFE_METHODS } from '../staff/audit-hook';
import type { Principal } from './principal';

export const CSRF_HEADER = 'X-CSRF-Token';

/**
 * What a staff session must also pass on an admin operation, after authentication (auth/middleware.ts) and
 * before the path ids and the body are looked at: an unsafe method carries the session's X-CSRF-Token, and
 * the member's role may call the operation (endpoints/admin-roles.ts). Both refusals are 403 ER. The operator
 * token passes untouched. Placed by the route table (endpoints/route-table.ts) on the admin API's routes.
 */
export function staffGuard(endpoint: EndpointDefinition): RequestHandler | undefined {
  if (endpoint.server !== 'admin') return undefined;
  const roles = rolesAllowed(endpoint.operationId);
  return (req, res, next) => {
    const principal = res.locals.principal as Principal | undefined;
    if (principal?.kind !== 'staff') return next();
    if (UNSAFE_METHODS.has(req.method) && !csrfMatches(principal.csrfToken, req.get(CSRF_HEADER)))
      return next(
        new RestError(
          403,
          `Missing or wrong ${CSRF_HEADER} header: a staff session sends the csrfToken of its sign-in with POST, PUT, PATCH and DELETE`,
          'ER',
          ['invalidRequest'],
        ),
      );
    if (!roles.includes(principal.role))
      return next(
        new RestError(403, `The staff role ${principal.role} may not call ${endpoint.operationId}`, 'ER', [
          'insufficientRole',
        ]),
      );
    next();
  };
}
