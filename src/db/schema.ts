/**
 * The one schema. `migrations/` is generated from this file with drizzle-kit
 * (`npm run db:generate`); the FTS5 search table, which drizzle cannot express,
 * lives in a custom drizzle-kit migration.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// ---------------------------------------------------------------- wilayah (read-only between seeds)

const regionColumns = {
  id: text("id").primaryKey(), // Kemendagri code with dots: 32.73.09.1001
  code: text("code").notNull(), // the same code without dots: 3273091001
  name: text("name").notNull(),
  altName: text("alt_name").notNull(),
  lat: real("lat"),
  lng: real("lng"),
  isActive: integer("is_active").notNull().default(1),
};

export const provinsi = sqliteTable("provinsi", regionColumns);

export const kabupaten = sqliteTable(
  "kabupaten",
  {
    ...regionColumns,
    provinsiId: text("provinsi_id").notNull(),
    type: text("type", { enum: ["kabupaten", "kota"] }).notNull(),
  },
  (t) => [index("kabupaten_parent_idx").on(t.provinsiId, t.id)],
);

export const kecamatan = sqliteTable(
  "kecamatan",
  { ...regionColumns, kabupatenId: text("kabupaten_id").notNull() },
  (t) => [index("kecamatan_parent_idx").on(t.kabupatenId, t.id)],
);

export const kelurahan = sqliteTable(
  "kelurahan",
  { ...regionColumns, kecamatanId: text("kecamatan_id").notNull() },
  (t) => [index("kelurahan_parent_idx").on(t.kecamatanId, t.id)],
);

/** Which dataset is loaded: the seed writes one row; `scripts/dev.ts` reads it to skip reloading. */
export const dataset = sqliteTable("dataset", {
  id: text("id").primaryKey(),
  version: text("version").notNull(),
  checksum: text("checksum").notNull(),
});

// ---------------------------------------------------------------- accounts

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(), // user_...
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    plan: text("plan").notNull().default("free"),
    status: text("status", { enum: ["active", "suspended"] }).notNull().default("active"),
    emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull().default(sql`(unixepoch() * 1000)`),
  },
  (t) => [uniqueIndex("users_email_uq").on(t.email)],
);

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
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.keyHash), index("api_keys_user_idx").on(t.userId)],
);

// ---------------------------------------------------------------- usage

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
