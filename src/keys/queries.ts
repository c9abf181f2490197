import { and, count, desc, eq, gte, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { batch, type Db } from "../db/client";
import { apiKeys, users } from "../db/schema";

export async function findKeyByHash(db: Db, keyHash: string) {
  const rows = await db
    .select({ keyId: apiKeys.id, userId: apiKeys.userId, revokedAt: apiKeys.revokedAt, userStatus: users.status, plan: users.plan })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, keyHash))
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
    sql`INSERT INTO api_keys (id, user_id, name, prefix, last4, key_hash, created_at)
    SELECT ${key.id}, ${key.userId}, ${key.name}, ${key.prefix}, ${key.last4}, ${key.keyHash}, ${key.createdAt}
    WHERE (SELECT count(*) FROM api_keys WHERE user_id = ${key.userId} AND revoked_at IS NULL) < ${max}`,
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

export async function keyHashesOfUser(db: Db, userId: string): Promise<string[]> {
  return (await db.select({ h: apiKeys.keyHash }).from(apiKeys).where(eq(apiKeys.userId, userId))).map((r) => r.h);
}

/** Raises a key's last use to `at` (never lowers it). For a batch. */
export function touchLastUsed(db: Db, keyId: string, at: number) {
  return db
    .update(apiKeys)
    .set({ lastUsedAt: sql`max(coalesce(${apiKeys.lastUsedAt}, 0), ${at})` })
    .where(eq(apiKeys.id, keyId));
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
