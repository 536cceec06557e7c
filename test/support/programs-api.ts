import type { ServiceUnderTest } from '@eligo/local-infra';

/** A REST answer: status, headers and the parsed body (undefined when there is none). */
export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** A raw body sent as is (with contentType); overrides body. */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** One HTTP call to the service under test; JSON bodies are sent and parsed. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export interface Account {
  accountId: string;
  name: string;
}

export interface IssuedToken {
  tokenId: string;
  token: string;
  clientId: string;
  clientSecret: string;
}

/**
 * The admin API and REST v2 of one running Eligo, with helpers that set up the accounts, tokens and
 * programs a scenario needs (each helper asserts its own success, so a scenario fails where it breaks).
 */
export function programsApi(eligo: Pick<ServiceUnderTest, 'httpUrl' | 'adminToken'>) {
  const admin = (
    method: string,
    path: string,
    options: Omit<CallOptions, 'token'> & { token?: string } = {},
  ) => call(`${eligo.httpUrl}/rest/admin/v1`, method, path, { token: eligo.adminToken, ...options });
  const v2 = (method: string, path: string, options: CallOptions = {}) =>
    call(`${eligo.httpUrl}/rest/v2`, method, path, options);

  async function expectOk(reply: Promise<Reply>, status: number): Promise<any> {
    const r = await reply;
    if (r.status !== status)
      throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body;
  }

  const createAccount = (name = 'Acme'): Promise<Account> =>
    expectOk(admin('POST', '/accounts', { body: { name } }), 201);
  const createToken = (accountId: string, name = 'ci', roles?: string[]): Promise<IssuedToken> =>
    expectOk(
      admin('POST', `/accounts/${accountId}/tokens`, { body: { name, ...(roles ? { roles } : {}) } }),
      201,
    );
  const revokeToken = (accountId: string, tokenId: string) =>
    expectOk(admin('DELETE', `/accounts/${accountId}/tokens/${tokenId}`), 204);
  const createProgram = (accountId: string, settings: Record<string, unknown> = {}): Promise<any> =>
    expectOk(
      admin('POST', '/programs', { body: { accountId, name: 'Spring', segment: 'student', ...settings } }),
      201,
    );
  /** An account with one token and one program: what most scenarios start from. */
  const tenant = async (name: string) => {
    const account = await createAccount(name);
    const token = await createToken(account.accountId);
    const program = await createProgram(account.accountId);
    return { account, token, program };
  };
  return { admin, v2, createAccount, createToken, revokeToken, createProgram, tenant };
}

export type ProgramsApi = ReturnType<typeof programsApi>;

/** A well-formed id that names nothing. */
export const unknownId = '0123456789abcdef01234567';
