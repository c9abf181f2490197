import { count, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { type UserRow, users } from "../db/schema";

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return (await db.select().from(users).where(eq(users.email, email)).limit(1))[0];
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];
}

/** Inserts a user; false when the email is taken (the unique index decides, so concurrent sign-ups cannot both win). */
export async function insertUser(db: Db, user: typeof users.$inferInsert): Promise<boolean> {
  try {
    await db.insert(users).values(user);
    return true;
  } catch (e) {
    if (/UNIQUE constraint failed/i.test(String((e as Error)?.cause ?? e))) return false;
    throw e;
  }
}

export async function markEmailVerified(db: Db, id: string): Promise<void> {
  await db.update(users).set({ emailVerified: true }).where(eq(users.id, id)).run();
}

/**
 * An identity provider proved the email belongs to whoever signs in: the account becomes verified and
 * a password set before the email was ever verified stops working (whoever set it may not own the
 * email: the pre-registration takeover).
 */
export async function claimUnverifiedAccount(db: Db, id: string): Promise<void> {
  await db.update(users).set({ emailVerified: true, passwordHash: "!" }).where(eq(users.id, id)).run();
}

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

export async function countUsers(db: Db): Promise<number> {
  return (await db.select({ n: count() }).from(users))[0]?.n ?? 0;
}

/** A user's plan, set only when `condition` holds when the statement runs (in the same batch as the change that decides it). For a batch. */
export function setPlanIf(userId: string, planId: string, condition: SQL): SQL {
  return sql`UPDATE users SET plan = ${planId} WHERE id = ${userId} AND ${condition}`;
}

/** A user's plan, as a batch statement. */
export function setPlan(db: Db, userId: string, planId: string) {
  return db.update(users).set({ plan: planId }).where(eq(users.id, userId));
}

/** Every user's plan set to `planOf` (an SQL expression over `users.id`) where it differs; returns who changed. */
export async function reconcileUserPlans(db: Db, planOf: SQL): Promise<string[]> {
  const rows = await db.update(users).set({ plan: planOf }).where(sql`${users.plan} <> ${planOf}`).returning({ id: users.id });
  return rows.map((r) => r.id);
}
