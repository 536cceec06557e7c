/**
 * What the gateway puts in the console's HTML (services/gateway/src/http/console-page.ts) as a JSON data
 * block: which roles may call each admin operation (the gateway's endpoints/admin-roles.ts, the table its
 * staff guard enforces) and how staff may sign in.
 */
export interface Bootstrap {
  /** operationId -> the staff roles that may call it; an operation missing here is admin's only. */
  roles: Record<string, string[]>;
  signIn: {
    /** "Sign in with your organization" (OIDC), when the gateway offers it: where the button goes. */
    organization: { label: string; url: string } | null;
  };
}

const EMPTY: Bootstrap = { roles: {}, signIn: { organization: null } };

export function readBootstrap(doc: Document): Bootstrap {
  const text = doc.getElementById('eligo-console-bootstrap')?.textContent;
  if (!text) return EMPTY;
  try {
    const parsed = JSON.parse(text) as Partial<Bootstrap>;
    return {
      roles: parsed.roles ?? {},
      signIn: { organization: parsed.signIn?.organization ?? null },
    };
  } catch {
    return EMPTY;
  }
}

/** Whether `role` may call the operation, by the same rule as the gateway's rolesAllowed. */
export function roleMay(roles: Bootstrap['roles'], role: string, operationId: string): boolean {
  const allowed = Object.prototype.hasOwnProperty.call(roles, operationId) ? roles[operationId]! : ['admin'];
  return allowed.includes(role);
}
