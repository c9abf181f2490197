/** Usage reads: a month's successful data calls, exact at any moment (live counts of the account object). */
import { primaryDb } from "../db/client";
import { keyLabels } from "../keys/queries";
import { accountObject, settleLeasesOf } from "./admission";

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
