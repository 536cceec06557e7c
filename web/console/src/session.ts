import { csrfHeaders, describeFailure, NETWORK, setCsrfToken, type Result } from './api';

/**
 * The staff session (services/gateway/src/routes/console-session.ts): not an operation of the admin API, so
 * not in the typed client. The cookie is HttpOnly: the page only ever holds the member and the CSRF token.
 */
export interface Member {
  staffId: string;
  name: string;
  role: string;
  csrfToken: string;
}

const PATH = '/console/session';

async function memberOf(call: Promise<Response>): Promise<Result<Member>> {
  try {
    const res = await call;
    const body = (await res.json().catch(() => undefined)) as Member | undefined;
    if (!res.ok || !body) return { ok: false, failure: describeFailure(res.status, body) };
    setCsrfToken(body.csrfToken);
    return { ok: true, data: body };
  } catch {
    return { ok: false, failure: NETWORK };
  }
}

/** The member of the cookie's session (after a reload); a 401 means nobody is signed in. */
export const currentMember = () => memberOf(fetch(PATH, { headers: { accept: 'application/json' } }));

export const signIn = (email: string, password: string) =>
  memberOf(
    fetch(PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email, password }),
    }),
  );

export async function signOut(): Promise<void> {
  try {
    await fetch(PATH, { method: 'DELETE', headers: csrfHeaders('DELETE') });
  } catch {
    // Gone from the page all the same; the session ends by itself when idle.
  } finally {
    setCsrfToken('');
  }
}
