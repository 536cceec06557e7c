import { LRUCache } from 'lru-cache';
import { sha256 } from './operator-token';
import type { AccountPrincipal } from './principal';

export interface AuthCacheOptions {
  /** How long a successful answer is reused; 0 turns the cache off. */
  ttlMs: number;
  /** Distinct tokens remembered; the least recently used goes first. */
  max?: number;
  /** Wall clock in ms (tests pass a fake one); also drives the LRU's TTL so both agree. */
  now?: () => number;
}

/**
 * Ids revoked recently, kept long enough to outlive any Authenticate call that was already in flight when
 * the revocation arrived (deadlines are at most 120 s): such a call may still answer "valid".
 */
const REVOKED_MEMORY_MS = 5 * 60_000;

/**
 * Successful token checks, keyed by the SHA-256 of the token so that the process never holds a token as a
 * map key. An entry lives for the configured TTL, never past the token's own expiry (OAuth tokens), and is
 * dropped as soon as its token id is revoked. Failures are never cached: a token created a moment ago must
 * work at once.
 */
export class AuthCache {
  private readonly entries: LRUCache<string, AccountPrincipal> | undefined;
  private readonly revoked: LRUCache<string, number>;
  readonly now: () => number;

  constructor(private readonly options: AuthCacheOptions) {
    this.now = options.now ?? Date.now;
    const perf = { now: this.now };
    this.entries =
      options.ttlMs > 0
        ? new LRUCache({ max: options.max ?? 10_000, ttl: options.ttlMs, ttlResolution: 0, perf })
        : undefined;
    this.revoked = new LRUCache({ max: 10_000, ttl: REVOKED_MEMORY_MS, ttlResolution: 0, perf });
  }

  get(token: string): AccountPrincipal | undefined {
    return this.entries?.get(keyOf(token));
  }

  /**
   * Remembers a successful answer obtained by a call that started at `startedAt` (this.now()). Skipped when
   * the token id was revoked since then, or when the token expires before the TTL would end anyway.
   */
  remember(token: string, principal: AccountPrincipal, expiresAt: Date | undefined, startedAt: number): void {
    if (!this.entries) return;
    const revokedAt = this.revoked.get(principal.tokenId);
    if (revokedAt !== undefined && revokedAt >= startedAt) return;
    // The LRU keeps an entry while its age is <= ttl; the token must already be refused at expires_at.
    const untilExpiry = expiresAt ? expiresAt.getTime() - this.now() - 1 : Number.POSITIVE_INFINITY;
    const ttl = Math.floor(Math.min(this.options.ttlMs, untilExpiry));
    if (ttl <= 0) return;
    this.entries.set(keyOf(token), principal, { ttl });
  }

  /** Drops every entry of the token id (its static token and the OAuth tokens issued from it). */
  dropTokenId(tokenId: string): number {
    this.revoked.set(tokenId, this.now());
    if (!this.entries) return 0;
    // A linear scan of at most `max` entries: revocations are rare, and no second index can go stale.
    const keys = [...this.entries.entries()].filter(([, p]) => p.tokenId === tokenId).map(([key]) => key);
    for (const key of keys) this.entries.delete(key);
    return keys.length;
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}

function keyOf(token: string): string {
  return sha256(token).toString('base64url');
}
