import type { programsV1 } from '@eligo/proto';
import { decodeGrpcError, type GrpcClient } from '@eligo/runtime';
import { LRUCache } from 'lru-cache';
import type { ProgramRules } from '../domain/eligibility';
import type { Claims } from '../domain/sso-rule';

/**
 * Adapters to the services organizations calls: the programs service, for a program's organization rules;
 * and to the outside world: organizations' OpenID providers, for single sign-on.
 */

/** Where the organization rules of a program come from: the programs service, behind a short cache. */
export interface ProgramRulesSource {
  /** undefined when the programs service does not know the program. */
  find(programId: string): Promise<ProgramRules | undefined>;
}

type ProgramsClient = GrpcClient<typeof programsV1.ProgramsServiceService>;

const CACHE_ENTRIES = 10_000;

/**
 * Reads programs with GetProgram as a service (empty accountId: no tenant check). Every search needs the
 * rules, so they are kept for `cacheMs` (0 = never kept): an edit to a program's rules then applies within
 * that time. Unknown programs are not cached, so that a program created a moment ago is found at once.
 */
export function programRulesFromService(client: ProgramsClient, cacheMs: number): ProgramRulesSource {
  const cache =
    cacheMs > 0 ? new LRUCache<string, ProgramRules>({ max: CACHE_ENTRIES, ttl: cacheMs }) : undefined;
  return {
    async find(programId) {
      const cached = cache?.get(programId);
      if (cached) return cached;
      let program;
      try {
        ({ program } = await client.unary('getProgram', { programId, accountId: '' }));
      } catch (err) {
        const decoded = decodeGrpcError(err);
        // Only the programs service's own answer means "no such program"; a transport failure travels on
        // (503/504 at the gateway) instead of passing for a missing program.
        if (decoded.codeName === 'NOT_FOUND' && decoded.kind !== undefined) return undefined;
        throw err;
      }
      if (!program) return undefined;
      const rules: ProgramRules = {
        programId: program.programId,
        segment: program.segment,
        countries: program.countries,
        organizationRules: {
          types: program.organizationRules?.types ?? [],
          countries: program.organizationRules?.countries ?? [],
          includeIds: program.organizationRules?.includeIds ?? [],
          excludeIds: program.organizationRules?.excludeIds ?? [],
        },
      };
      cache?.set(programId, rules);
      return rules;
    },
  };
}

/** What an OpenID Connect client needs of an organization's settings (the secret decrypted). */
export interface OidcProviderSettings {
  /** Names the provider's discovered configuration in the cache: the organization and when its settings changed. */
  key: string;
  issuer: string;
  clientId: string;
  /** undefined: a public client (PKCE only). */
  clientSecret: string | undefined;
  scopes: readonly string[];
}

/** A sign-on's secrets, kept between its start and its finish. */
export interface SignOnSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** A failure in our words (no address, no token, no claim value). */
export type OidcFailure = { ok: false; reason: string };

/** The OpenID Connect client work of single sign-on (adapters/oidc-client.ts, openid-client). */
export interface OidcClient {
  /** The provider's authorization URL for a new sign-on, and its secrets; a failure when discovery failed. */
  begin(
    provider: OidcProviderSettings,
    redirectUri: string,
  ): Promise<{ ok: true; url: string; secrets: SignOnSecrets } | OidcFailure>;
  /**
   * The code exchange of the URL the browser came back to (its redirect URI with the provider's query), with
   * every check of the ID token; `wanted` are the claims the rule reads (the UserInfo answer is asked when the
   * ID token lacks one). Never throws for what the provider or the browser sent: a failure says why.
   */
  finish(
    provider: OidcProviderSettings,
    callbackUrl: URL,
    secrets: SignOnSecrets,
    wanted: readonly string[],
  ): Promise<{ ok: true; claims: Claims } | OidcFailure>;
  /** Stops the breakers' timers (module stop). */
  shutdown(): void;
}
