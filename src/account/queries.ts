import { sql, sum } from "drizzle-orm";
import type { Db } from "../db/client";
import { usageDaily } from "../db/schema";

/** A day's count for one key and endpoint, written as an absolute value (a repeated flush changes nothing). For a batch. */
export function upsertDailyCount(db: Db, row: typeof usageDaily.$inferInsert) {
  return db
    .insert(usageDaily)
    .values(row)
    .onConflictDoUpdate({ target: [usageDaily.userId, usageDaily.keyId, usageDaily.endpoint, usageDaily.day], set: { count: sql`excluded.count` } });
}

/** Flushed calls of every account in one month (`YYYY-MM`). */
export async function callsInMonth(db: Db, month: string): Promise<number> {
  const r = await db.select({ n: sum(usageDaily.count) }).from(usageDaily).where(sql`${usageDaily.day} LIKE ${`${month}-%`}`);
  return Number(r[0]?.n ?? 0);
}
