import { status as Status } from '@grpc/grpc-js';
import { isServiceError } from '@eligo/runtime';
import { Router, type Request, type Response } from 'express';
import type { ProgramsClient } from '../clients/programs.client';
import { checkBody } from '../endpoints/body-check';
import {
  issueOAuthToken,
  OAuthTokenRequest,
  type OAuthErrorJson,
  type OAuthTokenJson,
} from '../endpoints/oauth';
import { routeTable } from '../endpoints/route-table';

export interface OAuthRouteOptions {
  programs: ProgramsClient;
}

type OAuthErrorCode = OAuthErrorJson['error'];

interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** What the Authorization header holds for client authentication (RFC 6749 section 2.3.1). */
type BasicAuth = { kind: 'none' } | { kind: 'malformed' } | ({ kind: 'basic' } & ClientCredentials);

/** Answers of IssueOAuthToken meaning "these credentials are not valid", as opposed to an outage. */
const invalidClientCodes: readonly Status[] = [
  Status.UNAUTHENTICATED,
  Status.NOT_FOUND,
  Status.INVALID_ARGUMENT,
  Status.PERMISSION_DENIED,
];

/**
 * POST /token: the OAuth 2.0 client-credentials grant (RFC 6749 section 4.4), as endpoints/oauth.ts defines
 * it. Errors use the RFC's own body ({error, error_description}), not ER/SEM, because OAuth client libraries
 * parse that shape: the route checks the parameters itself. Only an outage of the programs service falls
 * through to the common mapper (503).
 */
export function oauthRouter({ programs }: OAuthRouteOptions): Router {
  async function issueToken(req: Request, res: Response) {
    // RFC 6749 section 5.1: token responses, errors included, must not be cached.
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    const params: unknown = req.body ?? {};
    const checked = checkBody(OAuthTokenRequest, params);
    if (!checked.ok) {
      const grantType = (params as { grant_type?: unknown }).grant_type;
      if (typeof grantType === 'string' && grantType !== 'client_credentials') {
        return oauthError(res, 400, 'unsupported_grant_type', 'Only client_credentials is supported');
      }
      return oauthError(res, 400, 'invalid_request', checked.problem.replace(/^body/, 'request'));
    }
    const body = checked.value;
    const basic = basicCredentials(req.headers.authorization);
    if (basic.kind !== 'none' && (body.client_id !== undefined || body.client_secret !== undefined)) {
      return oauthError(res, 400, 'invalid_request', 'Use one client authentication method, not two');
    }
    const credentials =
      basic.kind === 'basic'
        ? { clientId: basic.clientId, clientSecret: basic.clientSecret }
        : body.client_id && body.client_secret
          ? { clientId: body.client_id, clientSecret: body.client_secret }
          : undefined;
    // The challenge tells a client that sent no credentials, or bad Basic ones, how to authenticate.
    const challenge = basic.kind !== 'none' || body.client_id === undefined;
    if (!credentials) return invalidClient(res, challenge);
    try {
      const issued = await programs.issueOAuthToken(credentials);
      res.json({
        access_token: issued.accessToken,
        token_type: 'Bearer',
        expires_in: issued.expiresInSeconds,
      } satisfies OAuthTokenJson);
    } catch (err) {
      if (isServiceError(err) && invalidClientCodes.includes(err.code)) return invalidClient(res, challenge);
      throw err;
    }
  }

  return routeTable(Router(), [{ endpoint: issueOAuthToken, ownBodyCheck: true, handler: issueToken }]);
}

function invalidClient(res: Response, challenge: boolean): void {
  if (challenge) res.set('WWW-Authenticate', 'Basic realm="eligo", charset="UTF-8"');
  oauthError(res, 401, 'invalid_client', 'Client authentication failed');
}

export function oauthError(res: Response, status: number, error: OAuthErrorCode, description: string): void {
  res.status(status).json({ error, error_description: description } satisfies OAuthErrorJson);
}

/** `Basic base64(urlencode(client_id) ":" urlencode(client_secret))`; other schemes count as none. */
export function basicCredentials(header: string | undefined): BasicAuth {
  const match = header ? /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return header && /^Basic\b/i.test(header) ? { kind: 'malformed' } : { kind: 'none' };
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return { kind: 'malformed' };
  try {
    const clientId = formDecode(decoded.slice(0, colon));
    const clientSecret = formDecode(decoded.slice(colon + 1));
    return clientSecret ? { kind: 'basic', clientId, clientSecret } : { kind: 'malformed' };
  } catch {
    return { kind: 'malformed' };
  }
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}
