/**
 * This isolate's copy of recent API key lookups. Known keys and misses are kept apart, each bounded:
 * a flood of random keys fills only the (smaller) miss side, so it never evicts the keys real clients use.
 */
import { LRUCache } from "lru-cache";

/**
 * `at`: when D1 was read for it (ms). A known key's times are checked on every use, so a cached
 * lookup never outlives them: `expiresAt` (the key's expiry) and `until` (a rolled secret's grace).
 * `publishable`: its origins and per-minute rate (absent: a secret key, and lookups cached before
 * publishable keys existed).
 */
export type CachedLookup = (
  | {
      ok: true;
      keyId: string;
      userId: string;
      plan: string;
      suspended: boolean;
      expiresAt?: number | null;
      until?: number | null;
      publishable?: { allowedOrigins: string[]; ratePerMinute: number };
    }
  | { ok: false }
) & { at: number };

/**
 * Other isolates drop their copy within MEMORY_TTL_MS, which is what a revocation costs on top of
 * KV's own propagation (see docs/api.md).
 */
const MEMORY_TTL_MS = 10_000;

export class LookupCache {
  readonly #known = new LRUCache<string, CachedLookup>({ max: 10_000, ttl: MEMORY_TTL_MS });
  readonly #misses = new LRUCache<string, CachedLookup>({ max: 1_000, ttl: MEMORY_TTL_MS });

  get(keyHash: string): CachedLookup | undefined {
    return this.#known.get(keyHash) ?? this.#misses.get(keyHash);
  }

  set(keyHash: string, lookup: CachedLookup): void {
    (lookup.ok ? this.#known : this.#misses).set(keyHash, lookup);
  }

  delete(keyHash: string): void {
    this.#known.delete(keyHash);
    this.#misses.delete(keyHash);
  }
}
