import { and, count, desc, eq, gte, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { batch, type Db } from "../db/client";
import { apiKeys, users } from "../db/schema";

/**
 * The key whose secret hashes to `keyHash`: its current secret, or the one before a roll (then
 * `previousUntil` says until when it works). One statement over the two unique indexes.
 */
export async function findKeyByHash(db: Db, keyHash: string) {
  const rows = await db
    .select({
      keyId: apiKeys.id,
      userId: apiKeys.userId,
      revokedAt: apiKeys.revokedAt,
      userStatus: users.status,
      plan: users.plan,
      kind: apiKeys.kind,
      allowedOrigins: apiKeys.allowedOrigins,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
      expiresAt: apiKeys.expiresAt,
      current: sql<number>`${apiKeys.keyHash} = ${keyHash}`,
      previousUntil: apiKeys.previousUntil,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(or(eq(apiKeys.keyHash, keyHash), eq(apiKeys.previousKeyHash, keyHash)))
    .limit(1);
  return rows[0];
}

export type KeyRow = typeof apiKeys.$inferSelect;

export async function listKeysOfUser(db: Db, userId: string): Promise<KeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/**
 * Inserts the key only while the user has fewer than `max` active keys (one statement, so concurrent
 * creates cannot overshoot), in one batch with what `record` builds (the audit event), written only
 * if the key was: both or neither. True when inserted.
 */
export async function insertKeyWithinLimit(
  db: Db,
  key: typeof apiKeys.$inferInsert & { createdAt: number },
  max: number,
  record: (condition: SQL) => SQL,
): Promise<boolean> {
  const [inserted] = await batch(db, [
    sql`INSERT INTO api_keys (id, user_id, name, prefix, last4, key_hash, created_at, kind, allowed_origins, rate_limit_per_minute, expires_at)
    SELECT ${key.id}, ${key.userId}, ${key.name}, ${key.prefix}, ${key.last4}, ${key.keyHash}, ${key.createdAt}, ${key.kind ?? "secret"},
      ${key.allowedOrigins ?? null}, ${key.rateLimitPerMinute ?? null}, ${key.expiresAt ?? null}
    WHERE (SELECT count(*) FROM api_keys WHERE user_id = ${key.userId} AND revoked_at IS NULL
      AND (expires_at IS NULL OR expires_at > ${key.createdAt})) < ${max}`,
    record(sql`EXISTS (SELECT 1 FROM api_keys WHERE id = ${key.id})`),
  ]);
  return inserted.meta.changes === 1;
}

export async function findKeyOfUser(db: Db, userId: string, keyId: string): Promise<KeyRow | undefined> {
  return (
    await db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
      .limit(1)
  )[0];
}

/**
 * Revokes a key that is not yet revoked, in one batch with what `record` builds (the audit event),
 * placed first and written only while the key is still active: only the batch that revokes the key
 * records it, also when a revocation is sent again. True when this call revoked it.
 */
export async function markRevoked(db: Db, keyId: string, at: number, record: (condition: SQL) => SQL): Promise<boolean> {
  const [, revoked] = await batch(db, [
    record(sql`EXISTS (SELECT 1 FROM api_keys WHERE id = ${keyId} AND revoked_at IS NULL)`),
    db
      .update(apiKeys)
      .set({ revokedAt: at })
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt))),
  ]);
  return revoked.meta.changes === 1;
}

/** Every hash a user's keys answer to: current secrets and those in a roll's grace. */
export async function keyHashesOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ h: apiKeys.keyHash, p: apiKeys.previousKeyHash }).from(apiKeys).where(eq(apiKeys.userId, userId));
  return rows.flatMap((r) => (r.p ? [r.h, r.p] : [r.h]));
}

/** Raises a key's last use to `at` (never lowers it), with that call's origin (null: it had none). For a batch. */
export function touchLastUsed(db: Db, keyId: string, at: number, origin: string | null) {
  // SET expressions all read the row as it was, so the CASE compares with the old last use.
  return db
    .update(apiKeys)
    .set({
      lastUsedAt: sql`max(coalesce(${apiKeys.lastUsedAt}, 0), ${at})`,
      lastUsedOrigin: sql`CASE WHEN ${at} >= coalesce(${apiKeys.lastUsedAt}, 0) THEN ${origin} ELSE ${apiKeys.lastUsedOrigin} END`,
    })
    .where(eq(apiKeys.id, keyId));
}

/**
 * A roll: the key's secret becomes `keyHash`; the one it had works until `until` (ms), and the one
 * before that (an earlier roll's, still in its grace) stops now. `expiresAt` undefined keeps the
 * expiry. Only an active key rolls; with its audit event, both or neither. True when rolled.
 */
export async function rollKeyHash(
  db: Db,
  k: { id: string; oldHash: string; keyHash: string; prefix: string; last4: string; until: number; expiresAt?: number | null },
  record: (condition: SQL) => SQL,
): Promise<boolean> {
  const [, rolled] = await batch(db, [
    record(sql`EXISTS (SELECT 1 FROM api_keys WHERE id = ${k.id} AND key_hash = ${k.oldHash} AND revoked_at IS NULL)`),
    db
      .update(apiKeys)
      .set({
        keyHash: k.keyHash,
        prefix: k.prefix,
        last4: k.last4,
        previousKeyHash: k.oldHash,
        previousUntil: k.until,
        ...(k.expiresAt !== undefined ? { expiresAt: k.expiresAt } : {}),
      })
      .where(and(eq(apiKeys.id, k.id), eq(apiKeys.keyHash, k.oldHash), isNull(apiKeys.revokedAt))),
  ]);
  return rolled.meta.changes === 1;
}

/**
 * The ids travel as one JSON parameter (json_each), not one bound parameter each (`inArray`): a month's
 * usage may span any number of keys (revoked ones too), and D1 refuses a statement with more than 100.
 */
export async function keyLabels(db: Db, ids: string[]): Promise<{ id: string; name: string; prefix: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix })
    .from(apiKeys)
    .where(sql`${apiKeys.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
}

export async function countActiveKeys(db: Db): Promise<number> {
  return (await db.select({ n: count() }).from(apiKeys).where(isNull(apiKeys.revokedAt)))[0]?.n ?? 0;
}

/** A user's keys created before `before` (ms) that are active, or were revoked at or after `revokedSince`. */
export async function keysCreatedBefore(db: Db, userId: string, before: number, revokedSince: number): Promise<KeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), lt(apiKeys.createdAt, before), or(isNull(apiKeys.revokedAt), gte(apiKeys.revokedAt, revokedSince))));
}

/** Every key of a user, deleted while `condition` holds (a stale account replaced). For a batch. */
export function deleteKeysOfUserIf(db: Db, userId: string, condition: SQL) {
  return db.delete(apiKeys).where(and(eq(apiKeys.userId, userId), condition));
}
