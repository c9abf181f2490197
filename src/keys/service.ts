/**
 * Resolving an `x-api-key` to its principal. The lookup is cached in KV by key hash, so a cache hit
 * costs no D1 query, and for a few seconds in this isolate's memory, so a hot key costs no
 * subrequest at all; revocation, suspension and plan changes delete both (`forgetKeyHashes`).
 *
 * A request that read D1 just before a revocation may write its (now stale) lookup to KV just after
 * the deletion. So forgetting also leaves a marker with the time it happened, and a KV lookup read
 * at or before that time is not trusted: it is read again from D1.
 */
import { auditIf, type RequestMeta } from "../audit/service";
import { primaryDb } from "../db/client";
import { newId } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { errorText, log } from "../lib/log";
import { retried } from "../lib/retry";
import { throttle } from "../lib/throttle";
import { iso } from "../lib/time";
import { type CachedLookup, LookupCache } from "./lookup-cache";
import { DEFAULT_KEY_RATE } from "./publishable";
import {
  findKeyByHash,
  findKeyOfUser,
  insertKeyWithinLimit,
  type KeyRow,
  keyHashesOfUser,
  keysCreatedBefore,
  listKeysOfUser,
  markRevoked,
  rollKeyHash,
} from "./queries";
import type { CreateKeyInput, RollKeyInput } from "./schemas";
import { displayParts, generateKeySecret, hashKeySecret, isWellFormedKey } from "./secret";

/**
 * Who is calling a data endpoint: what an `x-api-key` resolves to (REST and MCP alike).
 * `publishable`: a key that may sit in a web page (src/keys/publishable.ts), with its origins and
 * its own per-minute rate. `origin`: where the request came from (Origin, else the Referer's), if
 * it said: kept as the key's last-used origin.
 */
export type Principal = {
  keyId: string;
  userId: string;
  plan: string;
  publishable?: { allowedOrigins: string[]; ratePerMinute: number };
  origin?: string;
};

/** KV's minimum TTL is 60 s. Known keys are cached there; unknown hashes are not (a random key is never asked twice). */
const KNOWN_TTL = 600;

const kvKey = (keyHash: string) => `apikey:${keyHash}`;
const forgottenKey = (keyHash: string) => `apikey-forgotten:${keyHash}`;
/** Outlives any lookup cached before the marker was written (KNOWN_TTL). */
const FORGOTTEN_TTL = KNOWN_TTL + 300;
/** Lookups read from D1 up to this long after a marker are not trusted either: room for clocks of different machines. */
const CLOCK_MARGIN_MS = 5_000;

const memory = new LookupCache();

/**
 * Unknown keys cost us KV and D1 reads, so each client IP has a budget of them (KEY_MISS_LIMITER,
 * per Cloudflare location). An IP past it is remembered here until its window is over; the binding's
 * no is what puts it here, so each isolate pays at most one lookup for an IP the location refuses.
 *
 * Many clients share an address behind carrier NAT, so a refused IP is not refused outright: a key
 * KV does not know (its entry expired) is still read from D1, and only a key D1 does not know
 * either spends the address's second, smaller budget (KEY_RECHECK_LIMITER) and is answered 429.
 * Valid keys cost one D1 read each per KV lifetime (their lookup is then cached), so the D1 reads
 * an address can cause stay bounded; once the second budget is spent too, the address is closed
 * here until its window is over: 429 before D1 for any key KV does not know.
 */
const MISS_PERIOD_SECONDS = 60;
const refusedIps = new Map<string, number>();
const closedIps = new Map<string, number>();

/** When the address's refusal (in `map`) ends, if it is still on; forgets ended ones. */
function refusedUntil(map: Map<string, number>, ip: string, now: number): number | undefined {
  const until = map.get(ip);
  if (until === undefined) return undefined;
  if (until > now) return until;
  map.delete(ip);
  return undefined;
}

function remember(map: Map<string, number>, ip: string, until: number) {
  if (map.size > 10_000) map.clear();
  map.set(ip, until);
}

function tooManyUnknownKeys(until: number, now: number): ApiError {
  const wait = Math.max(1, Math.ceil((until - now) / 1000));
  return new ApiError("RATE_LIMITED", `Too many unknown API keys from this address. Try again in ${wait} seconds.`, {
    headers: { "retry-after": String(wait) },
  });
}

/**
 * Before D1 is read for a key KV does not know: a closed address is refused (429); a refused one
 * may read D1, and the answer says so (its miss then spends the second budget).
 */
function admitD1Read(ip: string | undefined, now: number): { refusedUntil?: number } {
  if (!ip) return {};
  const closed = refusedUntil(closedIps, ip, now);
  if (closed !== undefined) throw tooManyUnknownKeys(closed, now);
  return { refusedUntil: refusedUntil(refusedIps, ip, now) };
}

/** A key neither KV nor D1 knows, from `ip`: spends its budget, or (refused already) its second one; past them, 429. */
async function countMiss(env: Env, ip: string | undefined, now: number, refused: number | undefined) {
  if (!ip) return;
  if (refused !== undefined) {
    try {
      await throttle(env.KEY_RECHECK_LIMITER, `keyrecheck:${ip}`, MISS_PERIOD_SECONDS);
    } catch {
      remember(closedIps, ip, refused);
    }
    // Past its first budget an address gets 429 for unknown keys, as before: no answer tells an
    // enumerator more than that.
    throw tooManyUnknownKeys(refused, now);
  }
  try {
    // Fails open like every throttle: the unknown key is still refused, as INVALID_API_KEY.
    await throttle(env.KEY_MISS_LIMITER, `keymiss:${ip}`, MISS_PERIOD_SECONDS);
  } catch {
    remember(refusedIps, ip, now + MISS_PERIOD_SECONDS * 1000);
    throw tooManyUnknownKeys(now + MISS_PERIOD_SECONDS * 1000, now);
  }
}

/**
 * What a key's row says, as cached. A secret rolled away is known only during its grace; revoked,
 * unknown or past its grace, it is a miss.
 */
function lookupOf(row: Awaited<ReturnType<typeof findKeyByHash>>, at: number): CachedLookup {
  if (!row || row.revokedAt !== null) return { ok: false, at };
  const until = row.current ? null : row.previousUntil;
  if (until !== null && until <= at) return { ok: false, at };
  const origins = row.kind === "publishable" ? (JSON.parse(row.allowedOrigins ?? "[]") as string[]) : undefined;
  return {
    ok: true,
    keyId: row.keyId,
    userId: row.userId,
    plan: row.plan,
    suspended: row.userStatus === "suspended",
    expiresAt: row.expiresAt,
    until,
    ...(origins ? { publishable: { allowedOrigins: origins, ratePerMinute: row.rateLimitPerMinute ?? DEFAULT_KEY_RATE } } : {}),
    at,
  };
}

/**
 * The location's cached lookup (KV), or D1's answer, which is then cached. KV is only a cache: when it
 * fails, D1 answers (and nothing is written back), so a KV outage costs speed, never a request.
 * `beforeD1` may refuse the read (an address past both of its budgets of unknown keys).
 */
async function sharedLookup(env: Env, keyHash: string, waitUntil: (p: Promise<unknown>) => void, beforeD1: () => void): Promise<CachedLookup> {
  let cached: CachedLookup | null = null;
  let forgottenAt: string | null = null;
  let kvUp = true;
  try {
    [cached, forgottenAt] = await Promise.all([env.KV.get<CachedLookup>(kvKey(keyHash), "json"), env.KV.get(forgottenKey(keyHash))]);
  } catch (e) {
    kvUp = false;
    log.warn("kv_read_failed", { what: "api key lookup", error: errorText(e) });
  }
  if (cached && !(forgottenAt !== null && (cached.at ?? 0) <= Number(forgottenAt) + CLOCK_MARGIN_MS)) return cached;
  beforeD1();
  const at = Date.now();
  const lookup = lookupOf(await findKeyByHash(primaryDb(env), keyHash), at);
  if (lookup.ok && kvUp) waitUntil(env.KV.put(kvKey(keyHash), JSON.stringify(lookup), { expirationTtl: KNOWN_TTL }).catch(() => undefined));
  return lookup;
}

/**
 * The principal of an `x-api-key`. `clientIp` (CF-Connecting-IP) pays for unknown keys: past its
 * budget, 429 RATE_LIMITED for any key neither KV nor D1 knows; past its second budget as well, 429
 * for any key not known here or in KV, before any D1 read. An expired key, or a rolled secret past
 * its grace, is refused by the times its lookup carries, wherever it is cached. `origin`: the
 * request's (see Principal); a publishable key's checks are the caller's (publishable.ts).
 */
export async function resolveApiKey(
  env: Env,
  secret: string | undefined,
  waitUntil: (p: Promise<unknown>) => void,
  clientIp?: string,
  origin?: string,
): Promise<Principal> {
  if (!secret) throw new ApiError("MISSING_API_KEY", "Send your API key in the x-api-key header. Create keys at POST /user/keys.");
  if (!isWellFormedKey(secret)) throw new ApiError("INVALID_API_KEY", "The API key is not valid.");
  const keyHash = await hashKeySecret(secret);

  let lookup = memory.get(keyHash);
  if (!lookup) {
    const now = Date.now();
    let refused: number | undefined;
    lookup = await sharedLookup(env, keyHash, waitUntil, () => {
      refused = admitD1Read(clientIp, now).refusedUntil;
    });
    memory.set(keyHash, lookup);
    if (!lookup.ok) await countMiss(env, clientIp, now, refused);
  }
  if (!lookup.ok) throw new ApiError("INVALID_API_KEY", "The API key is not valid or has been revoked.");
  const now = Date.now();
  if (lookup.expiresAt != null && lookup.expiresAt <= now) throw new ApiError("INVALID_API_KEY", `The API key expired at ${iso(lookup.expiresAt)}.`);
  if (lookup.until != null && lookup.until <= now)
    throw new ApiError("INVALID_API_KEY", "The API key has been rolled and its grace period is over: use its new secret.");
  if (lookup.suspended) throw new ApiError("ACCOUNT_SUSPENDED", "The account that owns this API key is suspended.");
  return {
    keyId: lookup.keyId,
    userId: lookup.userId,
    plan: lookup.plan,
    ...(lookup.publishable ? { publishable: lookup.publishable } : {}),
    ...(origin ? { origin } : {}),
  };
}

/**
 * A key just created (or otherwise made usable) is cached in KV at once (write-through), so its
 * first call, even from an address refused for unknown keys, is served from KV. The lookup is read
 * from D1 after the key was committed, as a request would: a plan change or suspension racing it
 * leaves a forget marker newer than the lookup, which is then not trusted. KV is only a cache: a
 * failure here costs one D1 read later, never the creation.
 */
async function rememberNewKey(env: Env, keyHash: string): Promise<void> {
  try {
    const lookup = lookupOf(await findKeyByHash(primaryDb(env), keyHash), Date.now());
    if (!lookup.ok) return;
    await env.KV.put(kvKey(keyHash), JSON.stringify(lookup), { expirationTtl: KNOWN_TTL });
  } catch (e) {
    log.warn("api_key_write_through_failed", { error: errorText(e) });
  }
}

/**
 * Drops cached lookups so the next request with these keys reads D1 (revocation, suspension, plan
 * change), and marks the time, so that a lookup cached by a request racing this one is not trusted.
 * Call it after the D1 change is committed.
 */
export async function forgetKeyHashes(env: Env, keyHashes: string[]): Promise<void> {
  const now = String(Date.now());
  for (const h of keyHashes) memory.delete(h);
  await Promise.all(keyHashes.flatMap((h) => [env.KV.put(forgottenKey(h), now, { expirationTtl: FORGOTTEN_TTL }), env.KV.delete(kvKey(h))]));
}

// ---------------------------------------------------------------- managing keys (/user/keys)

export const MAX_ACTIVE_KEYS = 20;

export function publicKey(k: KeyRow, now = Date.now()) {
  return {
    id: k.id,
    name: k.name,
    kind: k.kind === "publishable" ? ("publishable" as const) : ("secret" as const),
    prefix: k.prefix,
    last4: k.last4,
    allowed_origins: k.allowedOrigins === null ? null : (JSON.parse(k.allowedOrigins) as string[]),
    rate_limit_per_minute: k.rateLimitPerMinute,
    created_at: iso(k.createdAt),
    expires_at: iso(k.expiresAt),
    last_used_at: iso(k.lastUsedAt),
    last_used_origin: k.lastUsedOrigin,
    previous_secret_until:
      k.previousKeyHash !== null && k.previousUntil !== null && k.previousUntil > now && k.revokedAt === null ? iso(k.previousUntil) : null,
    revoked_at: iso(k.revokedAt),
  };
}

/** An expiry as given (ISO 8601, or null/absent for none): in the future, else 400 VALIDATION_ERROR. */
function expiryOf(expiresAt: string | null | undefined, now: number): number | null | undefined {
  if (expiresAt == null) return expiresAt;
  const ms = Date.parse(expiresAt);
  if (!(ms > now))
    throw new ApiError("VALIDATION_ERROR", "expires_at must be in the future.", { details: [{ path: "expires_at", message: "must be in the future" }] });
  return ms;
}

export async function listKeys(env: Env, userId: string) {
  const now = Date.now();
  return (await listKeysOfUser(primaryDb(env), userId)).map((k) => publicKey(k, now));
}

/** Key creations, rolls and revocations a user may make per minute (KEY_CHANGE_LIMITER; each writes D1, KV and the audit trail). */
export const KEY_CHANGES_PER_MINUTE = 30;

async function throttleKeyChanges(env: Env, userId: string): Promise<void> {
  try {
    await throttle(env.KEY_CHANGE_LIMITER, `keychange:${userId}`, 60);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    throw new ApiError("RATE_LIMITED", `At most ${KEY_CHANGES_PER_MINUTE} API key creations, rolls and revocations per minute. Try again in 60 seconds.`, {
      headers: { "retry-after": "60" },
    });
  }
}

/**
 * A new key. `planRate`: the plan's calls per minute (null: unlimited), the ceiling of a
 * publishable key's own rate (the account room passes it: src/account/keys.ts).
 */
export async function createKey(env: Env, user: { id: string; emailVerified: boolean }, input: CreateKeyInput, planRate: number | null, meta: RequestMeta) {
  if (!user.emailVerified)
    throw new ApiError("EMAIL_NOT_VERIFIED", "Verify your email address before creating API keys (POST /auth/resend-verification sends a new link).");
  const now = Date.now();
  const expiresAt = expiryOf(input.expires_at, now) ?? null;
  const publishable = input.kind === "publishable";
  const rate = publishable ? (input.rate_limit_per_minute ?? Math.min(DEFAULT_KEY_RATE, planRate ?? DEFAULT_KEY_RATE)) : null;
  if (rate !== null && planRate !== null && rate > planRate)
    throw new ApiError("VALIDATION_ERROR", `rate_limit_per_minute is above your plan's ${planRate} calls per minute.`, {
      details: [{ path: "rate_limit_per_minute", message: `at most ${planRate}, your plan's rate` }],
    });
  await throttleKeyChanges(env, user.id);
  const name = input.name;
  const secret = generateKeySecret(input.kind);
  const row = {
    id: newId("key"),
    userId: user.id,
    name,
    ...displayParts(secret),
    keyHash: await hashKeySecret(secret),
    createdAt: now,
    kind: input.kind,
    // Deduplicated, in the order given: what the owner is shown is what is compared.
    allowedOrigins: publishable ? JSON.stringify([...new Set(input.allowed_origins)]) : null,
    rateLimitPerMinute: rate,
    expiresAt,
  };
  const db = primaryDb(env);
  let created: boolean;
  try {
    created = await insertKeyWithinLimit(db, row, MAX_ACTIVE_KEYS, (condition) =>
      auditIf(meta, { event: "key_created", actorId: user.id, subjectId: user.id, detail: { key_id: row.id, name, kind: input.kind } }, condition),
    );
  } catch (e) {
    await discardUnshownKey(db, row.id, user.id, meta);
    throw e;
  }
  if (!created) throw new ApiError("KEY_LIMIT_REACHED", `At most ${MAX_ACTIVE_KEYS} active keys per account. Revoke one first.`);
  await rememberNewKey(env, row.keyHash);
  // The secret is shown here and never again.
  return {
    ...publicKey({ ...row, lastUsedAt: null, lastUsedOrigin: null, revokedAt: null, previousKeyHash: null, previousUntil: null }),
    key: secret,
  };
}

/**
 * A new secret for a key (same id, kind, origins and usage): the secret before works for
 * `grace_seconds` more (0: stops now), then never again; a secret still in an earlier roll's grace
 * stops now. The old secret's cached lookups are forgotten, so the next request reads its grace
 * from D1; every cached lookup carries it from then on and is refused past it, wherever it is cached.
 */
export async function rollKey(env: Env, userId: string, keyId: string, input: RollKeyInput, meta: RequestMeta) {
  await throttleKeyChanges(env, userId);
  const db = primaryDb(env);
  const key = await findKeyOfUser(db, userId, keyId);
  if (!key) throw new ApiError("NOT_FOUND", `No API key "${keyId}" in your account.`);
  if (key.revokedAt !== null) throw new ApiError("KEY_REVOKED", "This key is revoked: create a new one instead.");
  const now = Date.now();
  const expiresAt = expiryOf(input.expires_at, now);
  const secret = generateKeySecret(key.kind === "publishable" ? "publishable" : "secret");
  const keyHash = await hashKeySecret(secret);
  const until = now + input.grace_seconds * 1000;
  const rolled = await rollKeyHash(db, { id: key.id, oldHash: key.keyHash, keyHash, ...displayParts(secret), until, expiresAt }, (condition) =>
    auditIf(meta, { event: "key_rolled", actorId: userId, subjectId: userId, detail: { key_id: key.id, grace_seconds: input.grace_seconds } }, condition),
  );
  // Rolled meanwhile by another request (its secret was shown there): this one changed nothing.
  if (!rolled) throw new ApiError("KEY_CHANGED", "The key changed while it was being rolled (rolled or revoked again): list your keys and try again.");
  await forgetKeyHashes(env, key.previousKeyHash ? [key.keyHash, key.previousKeyHash] : [key.keyHash]);
  await rememberNewKey(env, keyHash);
  const after = await findKeyOfUser(db, userId, keyId);
  // The new secret is shown here and never again.
  return { ...publicKey(after ?? key), key: secret };
}

/**
 * A key whose creation failed on the way back (the database may have committed it, its answer
 * lost): its secret was never shown, so nobody can use it, but it would sit among the account's
 * keys and count against the limit. It is revoked (with its event), if it exists; tried a few
 * times, and logged if it could not be.
 */
async function discardUnshownKey(db: ReturnType<typeof primaryDb>, keyId: string, userId: string, meta: RequestMeta): Promise<void> {
  await retried(
    () =>
      markRevoked(db, keyId, Date.now(), (condition) =>
        auditIf(meta, { event: "key_revoked", actorId: userId, subjectId: userId, detail: { key_id: keyId, reason: "creation not confirmed" } }, condition),
      ),
    { attempts: 3, backoffMs: 0, event: "api_key_discard_failed", fields: { key_id: keyId, user_id: userId } },
  );
}

export async function revokeKey(env: Env, userId: string, keyId: string, meta: RequestMeta) {
  await throttleKeyChanges(env, userId);
  const db = primaryDb(env);
  const key = await findKeyOfUser(db, userId, keyId);
  if (!key) throw new ApiError("NOT_FOUND", `No API key "${keyId}" in your account.`);
  // The revocation and its event commit together; the caches are forgotten on every call, so a
  // revocation that failed after committing (its answer lost) is completed when it is sent again.
  await markRevoked(db, key.id, Date.now(), (condition) =>
    auditIf(meta, { event: "key_revoked", actorId: userId, subjectId: userId, detail: { key_id: key.id } }, condition),
  );
  await forgetKeyHashes(env, key.previousKeyHash ? [key.keyHash, key.previousKeyHash] : [key.keyHash]);
  const after = await findKeyOfUser(db, userId, keyId);
  return publicKey(after ?? key);
}

/** Drops every cached lookup of a user's keys (suspension, plan change). */
export async function forgetUserKeys(env: Env, userId: string): Promise<void> {
  await forgetKeyHashes(env, await keyHashesOfUser(primaryDb(env), userId));
}

/**
 * How far back a takeover also takes keys already revoked: an earlier attempt of the same takeover
 * may have revoked them and failed before the caches and the account object heard of it.
 */
const TAKEOVER_RETRY_MS = 60 * 60 * 1000;

/**
 * A takeover: every key the account had before `before` (ms) is revoked (their creator may not own
 * the email), with its event. Returns their ids, with those revoked in the hour before (by an earlier
 * attempt that failed half-way), so that the caches and the account object hear of them too.
 */
export async function revokeKeysCreatedBefore(env: Env, userId: string, before: number, meta: RequestMeta): Promise<string[]> {
  const db = primaryDb(env);
  const keys = await keysCreatedBefore(db, userId, before, before - TAKEOVER_RETRY_MS);
  if (keys.length === 0) return [];
  const now = Date.now();
  for (const k of keys.filter((key) => key.revokedAt === null)) {
    await markRevoked(db, k.id, now, (condition) =>
      auditIf(meta, { event: "key_revoked", actorId: null, subjectId: userId, detail: { key_id: k.id, reason: "takeover" } }, condition),
    );
  }
  await forgetKeyHashes(
    env,
    keys.flatMap((k) => (k.previousKeyHash ? [k.keyHash, k.previousKeyHash] : [k.keyHash])),
  );
  return keys.map((k) => k.id);
}
