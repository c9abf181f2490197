/** Usage reads: a month's successful data calls, exact at any moment (live counts of the account object). */
import { primaryDb } from "../db/client";
import { keyLabels } from "../keys/queries";
import { accountObject, pendingDebits, settleLeasesOf } from "./admission";
import { findPlan, ledgerBalance } from "./queries";

export function currentMonth(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

export async function monthUsage(env: Env, userId: string, month: string) {
  await settleLeasesOf(env, userId);
  const rows = await (await accountObject(env, userId)).usage(month);
  const sum = (pick: (r: (typeof rows)[number]) => string) => {
    const m = new Map<string, number>();
    for (const r of rows) m.set(pick(r), (m.get(pick(r)) ?? 0) + r.count);
    return m;
  };
  const byKey = sum((r) => r.key_id);
  const keys = await keyLabels(primaryDb(env), [...byKey.keys()]);
  const keyInfo = new Map(keys.map((k) => [k.id, k]));
  return {
    month,
    total: rows.reduce((n, r) => n + r.count, 0),
    by_key: [...byKey].map(([key_id, count]) => ({ key_id, name: keyInfo.get(key_id)?.name ?? null, prefix: keyInfo.get(key_id)?.prefix ?? null, count })),
    by_endpoint: [...sum((r) => r.endpoint)].map(([endpoint, count]) => ({ endpoint, count })).sort((a, b) => b.count - a.count),
    by_day: [...sum((r) => r.day)].map(([day, count]) => ({ day, count })).sort((a, b) => a.day.localeCompare(b.day)),
  };
}

/**
 * What a user may still spend this month, as a page tells it before they start something large (a
 * bulk job): the plan's monthly quota, the calls counted this month and the credit balance. An
 * estimate of the moment (calls elsewhere and running jobs change it): admission decides.
 */
export async function monthAllowance(env: Env, userId: string, planId: string) {
  const db = primaryDb(env);
  const [plan, usage, ledger, pending] = await Promise.all([
    findPlan(db, planId),
    monthUsage(env, userId, currentMonth()),
    ledgerBalance(db, userId),
    pendingDebits(env, userId),
  ]);
  const quota = plan?.monthlyQuota ?? 0;
  const credits = Math.max(0, ledger - pending);
  const free = Math.max(0, quota - usage.total);
  return { quota, used: usage.total, free, credits, available: free + credits };
}
