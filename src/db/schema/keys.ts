/** API keys (src/keys). */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./auth";

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(), // key_...
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    last4: text("last4").notNull(),
    keyHash: text("key_hash").notNull(), // hex SHA-256 of the whole secret
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
    /** "secret" (`wk_live_`, servers only) or "publishable" (`wk_pub_`, may sit in a web page: src/keys/publishable.ts). */
    kind: text("kind").notNull().default("secret"),
    /** Publishable keys: the JSON array of origins a request must come from (`https://shop.example.com`, `https://*.example.com`). */
    allowedOrigins: text("allowed_origins"),
    /** Publishable keys: calls per minute for this key alone (one of the tiers in src/keys/publishable.ts), within the plan's. */
    rateLimitPerMinute: integer("rate_limit_per_minute"),
    /** When the key stops working (ms); null: never. */
    expiresAt: integer("expires_at"),
    /** The Origin (or the Referer's origin) of the latest call, if it had one. */
    lastUsedOrigin: text("last_used_origin"),
    /** After a roll: the hash of the secret before, which works until `previous_until` (ms), then never again. */
    previousKeyHash: text("previous_key_hash"),
    previousUntil: integer("previous_until"),
  },
  (t) => [
    uniqueIndex("api_keys_hash_uq").on(t.keyHash),
    uniqueIndex("api_keys_previous_hash_uq").on(t.previousKeyHash),
    index("api_keys_user_idx").on(t.userId),
  ],
);
