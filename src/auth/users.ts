import type { UserRow } from "../db/schema";

/** The contract's User record. */
export function publicUser(u: UserRow) {
  return { id: u.id, email: u.email, name: u.name, plan: u.plan, status: u.status, email_verified: u.emailVerified };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
