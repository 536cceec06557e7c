import type { StaffOidcSettings } from './oidc-config';

type OpenIdClient = typeof import('openid-client');
type Configuration = import('openid-client').Configuration;

/** Where the provider sends the browser back (registered with the provider as the redirect URI). */
export const OIDC_START_PATH = '/console/session/oidc';
export const OIDC_CALLBACK_PATH = '/console/session/oidc/callback';
/** How long a sign-in may take at the provider before its transaction is forgotten. */
export const OIDC_TRANSACTION_SECONDS = 600;

/** What the browser keeps between the redirect to the provider and the callback (an HttpOnly cookie). */
interface Transaction {
  state: string;
  nonce: string;
  verifier: string;
}

export type OidcOutcome = { ok: true; email: string } | { ok: false; reason: string };

export interface StaffOidc {
  readonly label: string;
  /** The provider's authorization URL and the transaction to keep in the browser until the callback. */
  begin(): Promise<{ url: string; transaction: string }>;
  /** Checks the callback (state, code with PKCE, ID token signature, issuer, audience, expiry, nonce). */
  finish(callbackUrl: URL, transaction: string | undefined): Promise<OidcOutcome>;
}

/**
 * Staff sign-in with the operator's OpenID provider (authorization code flow with PKCE, state and nonce),
 * by the certified openid-client library. The member is the staff member whose email is the ID token's
 * verified `email` claim: staff are still created with `eligo admin staff create`, which gives them their
 * role; the provider only proves who is signing in. The library is an ES module: loaded when first used
 * (Node 20.19 loads it from CommonJS), and the provider's metadata is discovered then, again after a failure.
 */
export function createStaffOidc(settings: StaffOidcSettings, publicBaseUrl: string): StaffOidc {
  const redirectUri = new URL(OIDC_CALLBACK_PATH, publicBaseUrl).toString();
  let configured: Promise<{ lib: OpenIdClient; config: Configuration }> | undefined;

  const configuration = () => {
    configured ??= (async () => {
      const lib = await import('openid-client');
      const auth = settings.clientSecret ? lib.ClientSecretPost(settings.clientSecret) : lib.None();
      // http only for a provider on this machine (oidc-config.ts refuses it elsewhere).
      const insecure = settings.issuer.protocol === 'http:' ? { execute: [lib.allowInsecureRequests] } : {};
      const config = await lib.discovery(settings.issuer, settings.clientId, undefined, auth, {
        ...insecure,
        timeout: 5,
      });
      return { lib, config };
    })().catch((err: unknown) => {
      configured = undefined; // the next sign-in discovers again
      throw err;
    });
    return configured;
  };

  return {
    label: settings.label,

    async begin() {
      const { lib, config } = await configuration();
      const tx: Transaction = {
        state: lib.randomState(),
        nonce: lib.randomNonce(),
        verifier: lib.randomPKCECodeVerifier(),
      };
      const url = lib.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        state: tx.state,
        nonce: tx.nonce,
        code_challenge: await lib.calculatePKCECodeChallenge(tx.verifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, transaction: Buffer.from(JSON.stringify(tx)).toString('base64url') };
    },

    async finish(callbackUrl, transaction) {
      const tx = transactionOf(transaction);
      if (!tx) return { ok: false, reason: 'no sign-in in progress in this browser (or it took too long)' };
      const { lib, config } = await configuration();
      let claims: Record<string, unknown> | undefined;
      try {
        const tokens = await lib.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: tx.verifier,
          expectedState: tx.state,
          expectedNonce: tx.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims();
        claims = idToken;
        // Providers that follow OpenID Connect to the letter put the scopes' claims (email) in the UserInfo
        // answer rather than the ID token: asked for the ID token's subject only.
        if (idToken && typeof idToken.email !== 'string' && tokens.access_token)
          claims = { ...idToken, ...(await lib.fetchUserInfo(config, tokens.access_token, idToken.sub)) };
      } catch (err) {
        // The library's message names the check that failed (state, nonce, signature, expiry...), never a token.
        return { ok: false, reason: `the provider's answer was refused: ${(err as Error).message}` };
      }
      const email = claims?.email;
      if (typeof email !== 'string' || email === '')
        return { ok: false, reason: 'the ID token has no email claim (ask for the email scope)' };
      if (claims?.email_verified !== true)
        return { ok: false, reason: 'the provider does not say the email is verified (email_verified)' };
      return { ok: true, email };
    },
  };
}

function transactionOf(value: string | undefined): Transaction | undefined {
  if (!value || value.length > 1000) return undefined;
  try {
    const tx = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<Transaction>;
    const ok = [tx.state, tx.nonce, tx.verifier].every((v) => typeof v === 'string' && v.length > 0);
    return ok ? (tx as Transaction) : undefined;
  } catch {
    return undefined;
  }
}
