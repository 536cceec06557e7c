import { call, type ProgramsApi, type Reply } from './programs-api';

/** What a browser holds once signed in to the console. */
export interface StaffSession {
  staffId: string;
  /** The session cookie as the browser sends it back (name=value). */
  cookie: string;
  csrf: string;
  /** The Set-Cookie header as the gateway answered it. */
  setCookie: string;
}

const expectStatus = (reply: Reply, status: number) =>
  expect(`${reply.status} ${JSON.stringify(reply.body)}`).toMatch(new RegExp(`^${status} `));

/**
 * Staff members and their console sessions against one running Eligo: `api` is the operator's admin API that
 * creates the members, `baseUrl` where its gateway answers the console's sign-in and the admin API.
 */
export function staffConsole(api: ProgramsApi, baseUrl: string) {
  /** A sign-in as the console's form sends it, whatever the answer. */
  const signIn = (email: string, password: string) =>
    call(baseUrl, 'POST', '/console/session', { body: { email, password } });

  /** A new member (POST /staff, 201): their id and the password shown once. */
  async function create(role: string, email: string, name = `The ${role}`) {
    const res = await api.admin('POST', '/staff', { body: { email, name, role } });
    expectStatus(res, 201);
    return res.body as { staffId: string; password: string };
  }

  /** Signs in (201): the session cookie and its CSRF token. */
  async function signedIn(email: string, password: string): Promise<StaffSession> {
    const res = await signIn(email, password);
    expectStatus(res, 201);
    const setCookie = res.headers.get('set-cookie')!;
    return {
      staffId: res.body.staffId,
      cookie: setCookie.split(';')[0]!,
      csrf: res.body.csrfToken,
      setCookie,
    };
  }

  /** A new member, signed in. */
  async function member(role: string, email: string, name?: string): Promise<StaffSession> {
    const { password } = await create(role, email, name);
    return signedIn(email, password);
  }

  /** The admin API as the console calls it: the session cookie, and its CSRF token unless told otherwise. */
  const as = (s: StaffSession, method: string, path: string, body?: unknown, withCsrf = true) =>
    call(`${baseUrl}/rest/admin/v1`, method, path, {
      body,
      headers: { cookie: s.cookie, ...(withCsrf ? { 'x-csrf-token': s.csrf } : {}) },
    });

  return { signIn, create, signedIn, member, as };
}

export type StaffConsole = ReturnType<typeof staffConsole>;
