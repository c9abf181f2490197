/** Daily usage, flushed by the per-account object (src/account). */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Successful data calls per user, key, endpoint and UTC day. Written by the per-account Durable
 * Object when it flushes (absolute counts, so a repeated flush changes nothing); the object itself
 * holds the live, exact counts.
 */
export const usageDaily = sqliteTable(
  "usage_daily",
  {
    userId: text("user_id").notNull(),
    keyId: text("key_id").notNull(),
    endpoint: text("endpoint").notNull(),
    day: text("day").notNull(), // YYYY-MM-DD (UTC)
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.keyId, t.endpoint, t.day] }), index("usage_daily_day_idx").on(t.day)],
);
