/** Administration: users, suspension, admin rights, overall stats. */

import { accountChanged } from "../account/admission";
import { callsInMonth } from "../account/queries";
import { currentMonth, monthUsage } from "../account/usage";
import { countUsers, findUserById, searchUsers, updateUser } from "../auth/queries";
import { publicUser } from "../auth/users";
import { grantCredits, grantSubscription } from "../billing/service";
import { primaryDb } from "../db/client";
import type { UserRow } from "../db/schema";
import { countActiveKeys, listKeysOfUser } from "../keys/queries";
import { publicKey } from "../keys/service";
import { ApiError } from "../lib/errors";
import { type Paging, pageWindow } from "../lib/paging";
import { iso } from "../lib/time";

const adminUser = (u: UserRow) => ({ ...publicUser(u), is_admin: u.isAdmin, created_at: iso(u.createdAt) });

export async function listUsers(env: Env, opts: Paging & { q?: string }) {
  const w = pageWindow(opts);
  const { total, rows } = await searchUsers(primaryDb(env), { q: opts.q?.trim().toLowerCase() || undefined, limit: w.limit, offset: w.offset });
  return { data: rows.map(adminUser), meta: w.meta(total) };
}

export async function getUser(env: Env, id: string) {
  const db = primaryDb(env);
  const user = await findUserById(db, id);
  if (!user) throw new ApiError("NOT_FOUND", `No user "${id}".`);
  const [keys, usage] = await Promise.all([listKeysOfUser(db, id), monthUsage(env, id, currentMonth())]);
  return { data: { ...adminUser(user), keys: keys.map(publicKey), usage } };
}

export async function patchUser(env: Env, id: string, patch: { status?: "active" | "suspended"; is_admin?: boolean }) {
  const db = primaryDb(env);
  const user = await updateUser(db, id, { status: patch.status, isAdmin: patch.is_admin });
  if (!user) throw new ApiError("NOT_FOUND", `No user "${id}".`);
  // Cached key lookups carry the account status: drop them so suspension (or reinstatement) applies at once.
  if (patch.status) await accountChanged(env, id);
  return { data: adminUser(user) };
}

export async function overallStats(env: Env) {
  const month = currentMonth();
  const db = primaryDb(env);
  const [users, activeKeys, calls] = await Promise.all([countUsers(db), countActiveKeys(db), callsInMonth(db, month)]);
  return { data: { users, active_keys: activeKeys, calls_this_month: calls, month } };
}

async function mustExist(env: Env, id: string) {
  if (!(await findUserById(primaryDb(env), id))) throw new ApiError("NOT_FOUND", `No user "${id}".`);
}

export async function adminGrantCredits(env: Env, id: string, amount: number, reason: string, adminId: string) {
  await mustExist(env, id);
  return grantCredits(env, id, amount, reason, adminId);
}

export async function adminGrantSubscription(env: Env, id: string, planId: string, months: number) {
  await mustExist(env, id);
  return grantSubscription(env, id, planId, months);
}
