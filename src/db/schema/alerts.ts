/**
 * The account's own limits and alerts (src/account: settings.ts, alerts.ts): what the customer set
 * (a monthly cap on credits spent beyond the quota, the credit level to be warned at, the language
 * of their messages) and each alert sent, once per threshold per month.
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** One row per account that changed a setting; no row: the defaults (no cap, no credit alert, Indonesian). */
export const accountSettings = sqliteTable("account_settings", {
  userId: text("user_id").primaryKey(),
  /** Credits that may be spent beyond the quota per UTC month; null: no cap (credits alone limit). */
  spendLimit: integer("spend_limit"),
  /** Warn when the credit balance falls below this; null: no such alert. */
  lowCreditsBelow: integer("low_credits_below"),
  /** The language of the account's emails (alerts): `id` or `en`. */
  lang: text("lang", { enum: ["id", "en"] })
    .notNull()
    .default("id"),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Alerts sent: usage past 80% and 100% of the plan's quota, credits below the account's level, the
 * spend limit reached. The unique index is the "once per threshold per month".
 */
export const usageAlerts = sqliteTable(
  "usage_alerts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    month: text("month").notNull(), // YYYY-MM (UTC)
    kind: text("kind", { enum: ["quota", "credits", "spend_limit"] }).notNull(),
    /** quota: 80 or 100 (percent); credits: the level crossed; spend_limit: the limit. */
    level: integer("level").notNull(),
    /** What the account stood at when it fired (JSON: used, quota, balance, spent, limit). */
    data: text("data").notNull(),
    createdAt: integer("created_at").notNull(),
    /** When the email was handed to the mail provider; null: not (yet, or no provider). */
    emailedAt: integer("emailed_at"),
  },
  (t) => [uniqueIndex("usage_alerts_once_uq").on(t.userId, t.month, t.kind, t.level), index("usage_alerts_user_idx").on(t.userId, t.createdAt)],
);
