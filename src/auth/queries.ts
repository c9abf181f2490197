import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { users } from "../db/schema";

export type UserRow = typeof users.$inferSelect;

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
