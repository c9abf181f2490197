/** Usage metering and reports. The per-account Durable Object holds the live counts. */
import { getAgentByName } from "agents";
import { inArray } from "drizzle-orm";
import { primaryDb } from "../db/client";
import { apiKeys } from "../db/schema";
import type { Principal } from "../lib/types";

const account = (env: Env, userId: string) => getAgentByName(env.ACCOUNT, userId);

/** Counts one successful data call (REST or MCP). Meant to run off the response path (waitUntil). */
export async function recordCall(env: Env, principal: Principal, endpoint: string): Promise<void> {
  await (await account(env, principal.userId)).record(principal.userId, principal.keyId, endpoint);
}

export function currentMonth(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

export async function monthUsage(env: Env, userId: string, month: string) {
  const rows = await (await account(env, userId)).usage(month);
  const sum = (pick: (r: (typeof rows)[number]) => string) => {
    const m = new Map<string, number>();
    for (const r of rows) m.set(pick(r), (m.get(pick(r)) ?? 0) + r.count);
    return m;
  };
  const byKey = sum((r) => r.key_id);
  const keys = byKey.size
    ? await primaryDb(env).select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix }).from(apiKeys).where(inArray(apiKeys.id, [...byKey.keys()]))
    : [];
  const keyInfo = new Map(keys.map((k) => [k.id, k]));
  return {
    month,
    total: rows.reduce((n, r) => n + r.count, 0),
    by_key: [...byKey].map(([key_id, count]) => ({ key_id, name: keyInfo.get(key_id)?.name ?? null, prefix: keyInfo.get(key_id)?.prefix ?? null, count })),
    by_endpoint: [...sum((r) => r.endpoint)].map(([endpoint, count]) => ({ endpoint, count })).sort((a, b) => b.count - a.count),
    by_day: [...sum((r) => r.day)].map(([day, count]) => ({ day, count })).sort((a, b) => a.day.localeCompare(b.day)),
  };
}
