import { STAFF_ROLES_EXTENSION, STAFF_SESSION, STAFF_FORBIDDEN } from '../src/openapi/staff-access';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * Test support: the served document without what staff identities added to every admin operation
 * (openapi/staff-access.ts: the staffSession security requirement, x-staff-roles and the 403 of a staff
 * session), so that the tests holding the document to the capture before the endpoint definitions
 * (endpoints/document-unchanged.test.ts) compare what each operation says of itself. What it removes is
 * tested where it is added (endpoints/admin-roles.test.ts).
 */
export function withoutStaffAccess<D extends { paths: Record<string, Json> }>(document: D): D {
  const paths: Record<string, Json> = {};
  for (const [path, own] of Object.entries(document.paths)) {
    const item: Json = (paths[path] = { ...own });
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation || operation[STAFF_ROLES_EXTENSION] === undefined) continue;
      const { [STAFF_ROLES_EXTENSION]: _roles, ...rest } = operation;
      const { '403': forbidden, ...responses } = rest.responses as Record<string, Json>;
      if ((forbidden as Json | undefined)?.description !== STAFF_FORBIDDEN)
        throw new Error(`${method} ${path}: the 403 is not the staff session's`);
      item[method] = {
        ...rest,
        security: (rest.security as Json[]).filter((requirement) => !(STAFF_SESSION in requirement)),
        responses,
      };
    }
  }
  return { ...document, paths };
}
