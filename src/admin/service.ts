/** Administration: users, suspension, admin rights, overall stats. Returns records and pages; routes/admin.ts and the portal answer with them. */

import { accountChanged } from "../account/admission";
import { callsInMonth } from "../account/queries";
import { currentMonth, monthUsage } from "../account/usage";
import { audit, auditStatement, type RequestMeta } from "../audit/service";
import { countUsers, findUserById, searchUsers, updateUser } from "../auth/queries";
import { publicUser } from "../auth/users";
import { grantCredits, grantSubscription } from "../billing/service";
import { primaryDb } from "../db/client";
import type { UserRow } from "../db/schema";
import { countActiveKeys, listKeysOfUser } from "../keys/queries";
import { publicKey } from "../keys/service";
import { ApiError } from "../lib/errors";
import { type PageOf, type Paging, pageWindow } from "../lib/paging";
import { iso } from "../lib/time";

const adminUser = (u: UserRow) => ({ ...publicUser(u), is_admin: u.isAdmin, created_at: iso(u.createdAt) });

export async function listUsers(env: Env, opts: Paging & { q?: string }): Promise<PageOf<ReturnType<typeof adminUser>>> {
  const w = pageWindow(opts);
  const { total, rows } = await searchUsers(primaryDb(env), { q: opts.q?.trim().toLowerCase() || undefined, limit: w.limit, offset: w.offset });
  return { items: rows.map(adminUser), meta: w.meta(total) };
}

export async function getUser(env: Env, id: string) {
  const db = primaryDb(env);
  const user = await findUserById(db, id);
  if (!user) throw new ApiError("NOT_FOUND", `No user "${id}".`);
  const [keys, usage] = await Promise.all([listKeysOfUser(db, id), monthUsage(env, id, currentMonth())]);
  return { ...adminUser(user), keys: keys.map((k) => publicKey(k)), usage };
}

/** Who does an admin action: the admin, and where from (the audit trail). */
export type AdminActor = RequestMeta & { id: string };

/**
 * Suspend, reinstate, grant or take admin rights. Suspension and the loss of admin rights end the
 * user's sessions; a change that would leave no active admin (the last one demoting or suspending
 * themselves) is 409 LAST_ADMIN.
 */
export async function patchUser(env: Env, id: string, patch: { status?: "active" | "suspended"; is_admin?: boolean }, actor: AdminActor) {
  const db = primaryDb(env);
  const before = await findUserById(db, id);
  if (!before) throw new ApiError("NOT_FOUND", `No user "${id}".`);
  const user = await updateUser(db, id, { status: patch.status, isAdmin: patch.is_admin }, Math.floor(Date.now() / 1000));
  if (!user) throw new ApiError("LAST_ADMIN", "This would leave no active administrator. Make another user an admin first.");
  // Cached key lookups carry the account status: drop them so suspension (or reinstatement) applies at once.
  if (patch.status) await accountChanged(env, id);
  await audit(env, actor, {
    event: "admin_user_changed",
    actorId: actor.id,
    subjectId: id,
    detail: {
      ...(patch.status !== undefined ? { status: patch.status, status_before: before.status } : {}),
      ...(patch.is_admin !== undefined ? { is_admin: patch.is_admin, is_admin_before: before.isAdmin } : {}),
    },
  });
  return adminUser(user);
}

export async function overallStats(env: Env) {
  const month = currentMonth();
  const db = primaryDb(env);
  const [users, activeKeys, calls] = await Promise.all([countUsers(db), countActiveKeys(db), callsInMonth(db, month)]);
  return { users, active_keys: activeKeys, calls_this_month: calls, month };
}

async function mustExist(env: Env, id: string) {
  if (!(await findUserById(primaryDb(env), id))) throw new ApiError("NOT_FOUND", `No user "${id}".`);
}

/** Returns the new balance. */
export async function adminGrantCredits(env: Env, id: string, amount: number, reason: string, actor: AdminActor) {
  await mustExist(env, id);
  // The event commits with the ledger entry, or neither does.
  return grantCredits(env, id, amount, reason, actor.id, [
    auditStatement(env, actor, { event: "admin_credits_changed", actorId: actor.id, subjectId: id, detail: { amount, reason } }),
  ]);
}

export async function adminGrantSubscription(env: Env, id: string, planId: string, months: number, actor: AdminActor) {
  await mustExist(env, id);
  // The event commits with the subscription, or neither does.
  return grantSubscription(env, id, planId, months, [
    auditStatement(env, actor, { event: "admin_subscription_granted", actorId: actor.id, subjectId: id, detail: { plan_id: planId, months } }),
  ]);
}
