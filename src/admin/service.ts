/** Administration: users, suspension, admin rights, overall stats. */
import { findUserById } from "../auth/queries";
import { publicUser } from "../auth/users";
import { primaryDb } from "../db/client";
import { listKeysOfUser } from "../keys/queries";
import { forgetUserKeys, publicKey } from "../keys/service";
import { makeMeta, MAX_PER_PAGE } from "../lib/data-endpoint";
import { ApiError } from "../lib/errors";
import { iso } from "../lib/time";
import { currentMonth, monthUsage } from "../usage/service";
import { grantCredits, grantSubscription } from "../billing/service";
import { searchUsers, stats, updateUser } from "./queries";
import type { UserRow } from "../auth/queries";

const adminUser = (u: UserRow) => ({ ...publicUser(u), is_admin: u.isAdmin, created_at: iso(u.createdAt) });

export async function listUsers(env: Env, opts: { q?: string; page: number; per_page: number }) {
  const perPage = Math.min(opts.per_page, MAX_PER_PAGE);
  const { total, rows } = await searchUsers(primaryDb(env), { q: opts.q?.trim().toLowerCase() || undefined, limit: perPage, offset: (opts.page - 1) * perPage });
  return { data: rows.map(adminUser), meta: makeMeta(total, opts.page, perPage) };
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
  if (patch.status) await forgetUserKeys(env, id);
  return { data: adminUser(user) };
}

export async function overallStats(env: Env) {
  const month = currentMonth();
  const s = await stats(primaryDb(env), month);
  return { data: { users: s.users, active_keys: s.activeKeys, calls_this_month: s.callsThisMonth, month } };
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
