import { count, eq, isNull, sql, sum } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys, usageDaily, users } from "../db/schema";

export async function searchUsers(db: Db, opts: { q?: string; limit: number; offset: number }) {
  // instr: the query is matched literally (no LIKE wildcards to escape).
  const where = opts.q ? sql`(instr(${users.email}, ${opts.q}) > 0 OR instr(lower(${users.name}), ${opts.q}) > 0)` : undefined;
  const [totals, rows] = await db.batch([
    db.select({ total: count() }).from(users).where(where),
    db.select().from(users).where(where).orderBy(users.createdAt, users.id).limit(opts.limit).offset(opts.offset),
  ]);
  return { total: totals[0]?.total ?? 0, rows };
}

export async function updateUser(db: Db, id: string, patch: { status?: "active" | "suspended"; isAdmin?: boolean }) {
  return (await db.update(users).set(patch).where(eq(users.id, id)).returning())[0];
}

export async function stats(db: Db, monthPrefix: string) {
  const [u, k, c] = await db.batch([
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(apiKeys).where(isNull(apiKeys.revokedAt)),
    db.select({ n: sum(usageDaily.count) }).from(usageDaily).where(sql`${usageDaily.day} LIKE ${`${monthPrefix}-%`}`),
  ]);
  return { users: u[0]?.n ?? 0, activeKeys: k[0]?.n ?? 0, callsThisMonth: Number(c[0]?.n ?? 0) };
}
