/** Accounts and their sign-in (src/auth): users, ended sessions, password resets, failed logins. */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(), // user_...
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    plan: text("plan").notNull().default("free"),
    status: text("status", { enum: ["active", "suspended"] })
      .notNull()
      .default("active"),
    emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull().default(sql`(unixepoch() * 1000)`),
    /** Session tokens issued before this time (epoch seconds, `iat < session_epoch`) are refused: raised to end every session. */
    sessionEpoch: integer("session_epoch").notNull().default(0),
    /** When the last verification message was sent (ms): the 1-per-minute resend limit is one conditional write on it. */
    verificationSentAt: integer("verification_sent_at"),
    /**
     * Whether whoever set up what the account holds (password, sessions, keys) proved they own the
     * email: false from a password registration until the link is opened in the browser that signed
     * up, a password reset through the emailed link, or a provider's verified sign-in. A reset of an
     * account still false is a takeover (its keys are revoked). Accounts from before this column: true.
     */
    ownerProven: integer("owner_proven", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [uniqueIndex("users_email_uq").on(t.email)],
);

export type UserRow = typeof users.$inferSelect;

/** Session tokens ended one by one (logout), by SHA-256 of the token, until the token would have expired anyway. */
export const revokedSessions = sqliteTable(
  "revoked_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id").notNull(),
    expiresAt: integer("expires_at").notNull(), // ms
  },
  (t) => [index("revoked_sessions_expiry_idx").on(t.expiresAt)],
);

/** Password-reset links: each usable once, within its expiry. `id` is the token's `jti`. */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("password_resets_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Failed logins per email address (known or not, keyed by the SHA-256 of the normalised address, so
 * the table answers the same for both): the per-account back-off.
 */
export const loginFailures = sqliteTable("login_failures", {
  emailHash: text("email_hash").primaryKey(),
  failures: integer("failures").notNull(),
  lockedUntil: integer("locked_until").notNull().default(0), // ms
  lastAt: integer("last_at").notNull(), // ms
});
