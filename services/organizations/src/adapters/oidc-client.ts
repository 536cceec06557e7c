import {
  CallBreaker,
  moduleMetrics,
  type AllowCidrs,
  type BreakerState,
  type Logger,
  type MetricsRegistry,
} from '@eligo/runtime';
import { LRUCache } from 'lru-cache';
import type { OidcClient, OidcProviderSettings, SignOnSecrets } from '../app/ports';
import type { Claims } from '../domain/sso-rule';
import { guardedFetch, ProviderUnreachable } from './guarded-fetch';

type OpenIdClient = typeof import('openid-client');
type Configuration = import('openid-client').Configuration;

export interface OidcClientOptions {
  /** ELIGO_ORGANIZATIONS_SSO_HTTP_TIMEOUT_MS: the longest one HTTP call to a provider is waited for. */
  httpTimeoutMs: number;
  /** ELIGO_ORGANIZATIONS_SSO_DISCOVERY_CACHE_MS: how long a provider's discovered metadata is reused. */
  discoveryCacheMs: number;
  /** ELIGO_WEBHOOK_ALLOW_CIDRS. */
  allowCidrs: AllowCidrs;
  metrics?: MetricsRegistry;
  logger?: Logger;
}

/** opossum's settings per provider, those of the instant-match sources: half of 5+ calls failing in 30 s. */
const BREAKER = {
  volumeThreshold: 5,
  errorThresholdPercentage: 50,
  resetTimeoutMs: 30_000,
  rollingWindowMs: 30_000,
};
const STATE_VALUE: Record<BreakerState, number> = { closed: 0, halfOpen: 1, open: 2, disabled: 0 };
const CONFIGURATIONS = 1000;

/**
 * The OpenID Connect client work of single sign-on, by the certified openid-client library (authorization
 * code flow with PKCE S256, state and nonce; the ID token's signature, issuer, audience, expiry and nonce are
 * the library's checks). The library is an ES module: loaded when first used (Node 20.19 loads it from
 * CommonJS). Each organization's configuration (its provider's discovered metadata and keys) is kept for
 * `discoveryCacheMs` under the organization's id and the time its settings changed, so that a change is
 * discovered afresh; a failed discovery is not kept. Every HTTP call goes through guardedFetch, behind one
 * circuit breaker per issuer.
 */
export function createOidcClient(options: OidcClientOptions): OidcClient {
  let library: Promise<OpenIdClient> | undefined;
  const lib = () => (library ??= import('openid-client'));
  const configurations =
    options.discoveryCacheMs > 0
      ? new LRUCache<string, Promise<Configuration>>({ max: CONFIGURATIONS, ttl: options.discoveryCacheMs })
      : undefined;
  const metrics = options.metrics && moduleMetrics(options.metrics, 'organizations');
  const breakerState = metrics?.gauge<'issuer'>({
    name: 'eligo_sso_provider_breaker_state',
    help: "Circuit breaker of an organization's OpenID provider: 0 closed, 1 half-open, 2 open.",
    labelNames: ['issuer'],
  });
  const breakers = new Map<string, CallBreaker>();
  const breakerFor = (issuer: string): CallBreaker => {
    let breaker = breakers.get(issuer);
    if (!breaker) {
      breakerState?.set({ issuer }, 0);
      breaker = new CallBreaker(`sso provider ${issuer}`, { ...BREAKER, isFailure: () => true }, (state) => {
        breakerState?.set({ issuer }, STATE_VALUE[state]);
        options.logger?.warn({ issuer, state }, 'sso provider circuit breaker');
      });
      breakers.set(issuer, breaker);
    }
    return breaker;
  };

  const discover = async (provider: OidcProviderSettings): Promise<Configuration> => {
    const client = await lib();
    const auth =
      provider.clientSecret === undefined ? client.None() : client.ClientSecretPost(provider.clientSecret);
    const issuer = new URL(provider.issuer);
    // The library takes an ID token from the token endpoint on the strength of TLS alone unless told to check
    // its signature against the issuer's published keys (OpenID Connect Core 3.1.3.7): told, so that a token
    // the issuer did not sign is refused whatever the transport. Plain http only reaches a provider that
    // guardedFetch lets through: an address the allow list opens.
    const execute = [
      client.enableNonRepudiationChecks,
      ...(issuer.protocol === 'http:' ? [client.allowInsecureRequests] : []),
    ];
    return client.discovery(issuer, provider.clientId, undefined, auth, {
      execute,
      [client.customFetch]: guardedFetch({
        allowCidrs: options.allowCidrs,
        breaker: breakerFor(provider.issuer),
      }),
      timeout: options.httpTimeoutMs / 1000,
    });
  };
  const configuration = (provider: OidcProviderSettings): Promise<Configuration> => {
    const cached = configurations?.get(provider.key);
    if (cached) return cached;
    const found = discover(provider);
    configurations?.set(provider.key, found);
    found.catch(() => {
      if (configurations?.get(provider.key) === found) configurations.delete(provider.key);
    });
    return found;
  };

  return {
    async begin(provider, redirectUri) {
      let config: Configuration;
      try {
        config = await configuration(provider);
      } catch (err) {
        const reason = `the provider's discovery failed: ${reasonOf(err)}`;
        options.logger?.warn({ issuer: provider.issuer, reason }, 'sso sign-on not started');
        return { ok: false, reason };
      }
      const client = await lib();
      const secrets: SignOnSecrets = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: provider.scopes.join(' '),
        state: secrets.state,
        nonce: secrets.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(secrets.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { ok: true, url: url.href, secrets };
    },

    async finish(provider, callbackUrl, secrets, wanted) {
      try {
        const config = await configuration(provider);
        const client = await lib();
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: secrets.codeVerifier,
          expectedState: secrets.state,
          expectedNonce: secrets.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims();
        if (!idToken) return { ok: false, reason: 'the provider gave no ID token' };
        let claims: Claims = idToken;
        // Providers that follow OpenID Connect to the letter give the scopes' claims in the UserInfo answer
        // rather than the ID token: asked, for the ID token's subject only, when the rule reads a claim the
        // ID token lacks. The ID token's own claims win.
        const missing = wanted.some((name) => !Object.prototype.hasOwnProperty.call(idToken, name));
        if (missing && tokens.access_token && config.serverMetadata().userinfo_endpoint)
          claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...idToken };
        return { ok: true, claims };
      } catch (err) {
        // One line per refused sign-on, for the operator of a misconfigured provider: no token, no claim.
        const reason = `the sign-on was refused: ${reasonOf(err)}`;
        options.logger?.info({ issuer: provider.issuer, reason }, 'sso sign-on refused');
        return { ok: false, reason };
      }
    },

    shutdown() {
      for (const breaker of breakers.values()) breaker.shutdown();
      breakers.clear();
      configurations?.clear();
    },
  };
}

/**
 * What failed, in words that name no address, no token and no claim value: our own reason for a call that did
 * not reach the provider; else the library's message (it names the check that failed: state, nonce,
 * signature, expiry...) with its cause's, and the OAuth error code the provider answered, if any.
 */
function reasonOf(err: unknown): string {
  for (let e: unknown = err; e instanceof Error; e = e.cause)
    if (e instanceof ProviderUnreachable) return e.message;
  if (!(err instanceof Error)) return 'unknown error';
  const parts = [err.message];
  const cause = err.cause instanceof Error ? err.cause.message : '';
  if (cause && cause !== err.message && cause.length <= 200) parts.push(cause);
  const code = (err as { error?: unknown }).error;
  if (typeof code === 'string' && /^[\w.-]{1,64}$/.test(code)) parts.push(`error ${code}`);
  return parts.join(': ');
}
