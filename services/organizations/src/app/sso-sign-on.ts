import { notFound, unavailable } from '@eligo/runtime';
import { isId } from '../domain/ids';
import { invalidRequest } from '../domain/problems';
import { claimsRead, evaluateSsoRule } from '../domain/sso-rule';
import { redirectUriProblem } from '../domain/sso-settings';
import { findOrganization } from '../repository/organizations.repository';
import type { OrganizationSsoRecord } from '../repository/organization-sso.repository';
import {
  deleteLapsedSignOns,
  insertSignOn,
  takeSignOn,
  trimSignOns,
} from '../repository/sso-sign-ons.repository';
import type { AppContext } from './context';
import { clientSecretContext, requireOrganizationSso } from './organization-sso';
import type { OidcProviderSettings } from './ports';

/** How long a person has at the provider between the start and the finish of a sign-on. */
export const SIGN_ON_LIFETIME_MS = 10 * 60_000;
/** Lapsed sign-ons are kept this long, so that a late finish is told it lapsed rather than that it is unknown. */
export const LAPSED_KEPT_MS = 60 * 60_000;
/** The sign-ons a verification keeps at once (tabs, retries): older ones are dropped at a start. */
export const SIGN_ONS_PER_VERIFICATION = 5;
const MAX_STATE_LENGTH = 512;
const MAX_CALLBACK_LENGTH = 8192;
const CLEANUP_BATCH = 1000;

export type SsoOutcome = 'ELIGIBLE' | 'INELIGIBLE' | 'FAILED';

export interface FinishedSignOn {
  verificationId: string;
  organizationId: number;
  outcome: SsoOutcome;
  /** Our words: no personal data, no token, no claim value. */
  reason: string;
}

/**
 * StartSsoSignOn: discovery of the organization's provider (cached), then a sign-on bound to the verification,
 * the organization and the redirect URI, with a random state, nonce and PKCE verifier (openid-client's, 256
 * bits each). Only the state's keyed HMAC is stored, the nonce and verifier encrypted. UNAVAILABLE when the
 * provider cannot be discovered (the caller offers another way).
 */
export async function startSsoSignOn(
  ctx: AppContext,
  request: { organizationId: number; verificationId: string; redirectUri: string },
): Promise<{ authorizationUrl: string; expiresAt: Date }> {
  if (!isId(request.verificationId))
    throw invalidRequest('verificationId: must be 24 lowercase hex characters');
  const uriProblem = redirectUriProblem(request.redirectUri);
  if (uriProblem) throw invalidRequest(`redirectUri: ${uriProblem}`);
  const stored = await requireOrganizationSso(ctx, request.organizationId);
  const begun = await ctx.sso.oidc.begin(providerOf(ctx, stored), request.redirectUri);
  if (!begun.ok) throw unavailable(`The organization's OpenID provider cannot be used now: ${begun.reason}`);
  const stateHash = ctx.sso.signOns.lookupHash(begun.secrets.state);
  const context = stateHash.toString('hex');
  const expiresAt = await ctx.db.transaction(async (trx) => {
    const expires = await insertSignOn(
      trx,
      {
        stateHash,
        verificationId: request.verificationId,
        organizationId: request.organizationId,
        nonceEncrypted: ctx.sso.signOns.encrypt(begun.secrets.nonce, `${context}:nonce`),
        codeVerifierEncrypted: ctx.sso.signOns.encrypt(begun.secrets.codeVerifier, `${context}:codeVerifier`),
        redirectUri: request.redirectUri,
      },
      SIGN_ON_LIFETIME_MS,
    );
    await trimSignOns(trx, request.verificationId, SIGN_ONS_PER_VERIFICATION);
    return expires;
  });
  return { authorizationUrl: begun.url, expiresAt };
}

/**
 * FinishSsoSignOn: takes the sign-on of the state out (it is used once, whatever follows: NOT_FOUND for a
 * second finish), exchanges the code of the callback's query at the sign-on's own redirect URI (PKCE
 * verifier, state, nonce, and every ID token check of the library), then applies the organization's rule to
 * the claims. Whatever the provider or the browser sent ends in an outcome, never an error: FAILED says why.
 */
export async function finishSsoSignOn(
  ctx: AppContext,
  request: { state: string; callbackUrl: string },
): Promise<FinishedSignOn> {
  if (request.state === '' || request.state.length > MAX_STATE_LENGTH) throw noSignOn();
  const taken = await takeSignOn(ctx.db, ctx.sso.signOns.lookupHash(request.state));
  if (!taken) throw noSignOn();
  const { signOn, lapsed } = taken;
  const finished = (outcome: SsoOutcome, reason: string): FinishedSignOn => ({
    verificationId: signOn.verificationId,
    organizationId: signOn.organizationId,
    outcome,
    reason,
  });
  if (lapsed) return finished('FAILED', 'the sign-on lapsed: it must finish within 10 minutes of its start');
  const callback = callbackOf(signOn.redirectUri, request.callbackUrl);
  if (!callback) return finished('FAILED', 'the callback URL cannot be read');
  // The row exists, so the client does (deleting it deletes its sign-ons); the organization too.
  const stored = await requireOrganizationSso(ctx, signOn.organizationId);
  const context = signOn.stateHash.toString('hex');
  const proved = await ctx.sso.oidc.finish(
    providerOf(ctx, stored),
    callback,
    {
      state: request.state,
      nonce: ctx.sso.signOns.decrypt(signOn.nonceEncrypted, `${context}:nonce`),
      codeVerifier: ctx.sso.signOns.decrypt(signOn.codeVerifierEncrypted, `${context}:codeVerifier`),
    },
    claimsRead(stored.rule),
  );
  if (!proved.ok) return finished('FAILED', proved.reason);
  const organization = await findOrganization(ctx.db, signOn.organizationId);
  const verdict = evaluateSsoRule(stored.rule, proved.claims, organization?.domains ?? []);
  return finished(verdict.eligible ? 'ELIGIBLE' : 'INELIGIBLE', verdict.reason);
}

/** The cleanup job: one bounded batch of sign-ons lapsed long enough ago; true when it left more behind. */
export async function sweepSsoSignOns(ctx: AppContext): Promise<boolean> {
  return (await deleteLapsedSignOns(ctx.db, LAPSED_KEPT_MS, CLEANUP_BATCH)) === CLEANUP_BATCH;
}

const noSignOn = () => notFound('No sign-on in progress has this state', { reason: 'noSsoSignOn' });

/**
 * The URL the library reads: the sign-on's own redirect URI (sent again as the token request's redirect_uri)
 * with the query the provider put on the callback; undefined when the callback is not a URL.
 */
function callbackOf(redirectUri: string, callbackUrl: string): URL | undefined {
  if (callbackUrl.length > MAX_CALLBACK_LENGTH) return undefined;
  let query: string;
  try {
    query = new URL(callbackUrl).search;
  } catch {
    return undefined;
  }
  const url = new URL(redirectUri);
  url.search = query;
  return url;
}

function providerOf(ctx: AppContext, stored: OrganizationSsoRecord): OidcProviderSettings {
  return {
    key: `${stored.organizationId}:${stored.updatedAt.getTime()}`,
    issuer: stored.issuer,
    clientId: stored.clientId,
    clientSecret:
      stored.clientSecretEncrypted === null
        ? undefined
        : ctx.sso.clientSecrets.decrypt(
            stored.clientSecretEncrypted,
            clientSecretContext(stored.organizationId),
          ),
    scopes: stored.scopes,
  };
}
