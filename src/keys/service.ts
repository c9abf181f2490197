/**
 * Resolving an `x-api-key` to its principal. The lookup is cached in KV by key hash, so a cache hit
 * costs no D1 query; revocation and suspension delete the cached entry (see `forgetKeyHashes`).
 */
import { primaryDb } from "../db/client";
import { ApiError } from "../lib/errors";
import type { Principal } from "../lib/types";
import { findKeyByHash } from "./queries";
import { hashKeySecret, isWellFormedKey } from "./secret";

type CachedLookup = { ok: true; keyId: string; userId: string; suspended: boolean } | { ok: false };

/** KV's minimum TTL is 60 s. Known keys are kept longer; unknown hashes briefly (they cannot become valid: new keys are random). */
const KNOWN_TTL = 600;
const UNKNOWN_TTL = 60;

const kvKey = (keyHash: string) => `apikey:${keyHash}`;

export async function resolveApiKey(env: Env, secret: string | undefined, waitUntil: (p: Promise<unknown>) => void): Promise<Principal> {
  if (!secret) throw new ApiError("MISSING_API_KEY", "Send your API key in the x-api-key header. Create keys at POST /user/keys.");
  if (!isWellFormedKey(secret)) throw new ApiError("INVALID_API_KEY", "The API key is not valid.");
  const keyHash = await hashKeySecret(secret);

  let lookup = await env.KV.get<CachedLookup>(kvKey(keyHash), "json");
  if (!lookup) {
    const row = await findKeyByHash(primaryDb(env), keyHash);
    lookup = row && row.revokedAt === null ? { ok: true, keyId: row.keyId, userId: row.userId, suspended: row.userStatus === "suspended" } : { ok: false };
    waitUntil(env.KV.put(kvKey(keyHash), JSON.stringify(lookup), { expirationTtl: lookup.ok ? KNOWN_TTL : UNKNOWN_TTL }));
  }
  if (!lookup.ok) throw new ApiError("INVALID_API_KEY", "The API key is not valid or has been revoked.");
  if (lookup.suspended) throw new ApiError("ACCOUNT_SUSPENDED", "The account that owns this API key is suspended.");
  return { keyId: lookup.keyId, userId: lookup.userId };
}

/** Drops cached lookups so the next request with these keys reads D1 (revocation, suspension). */
export async function forgetKeyHashes(env: Env, keyHashes: string[]): Promise<void> {
  await Promise.all(keyHashes.map((h) => env.KV.delete(kvKey(h))));
}
