/**
 * Issue 27, scenario 2: data calls (REST) while D1 and KV fail on a seeded schedule. Every answer is
 * correct or a clear 503 SERVICE_UNAVAILABLE with Retry-After and the request id, never a 500; a call
 * that failed is neither counted nor charged. Invariants after each schedule: the account's usage
 * equals the successful calls, and the credits spent equal the successful calls beyond the quota.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { currentMonth, monthUsage } from "../../src/account/usage";
import { credits } from "../../src/billing/service";
import { json, seedUserWithKey } from "../helpers";
import { callWith, drain, FAULTS_TIMEOUT_MS, FaultPlan, faultyEnv, MIN_FAULTS } from "./inject";

const PATHS = [
  "/api/v1/wilayah/provinsi?page=2&per_page=5",
  "/api/v1/wilayah/search?q=gambir%20jakarta",
  "/api/v1/wilayah/search?q=bandng",
  "/api/v1/wilayah/32.73.09.1001",
  "/api/v1/wilayah/kelurahan?kecamatan_id=32.73.09",
  "/api/v1/wilayah/reverse?lat=-6.90827&lng=107.626971",
  "/api/v1/wilayah/kodepos/40114",
];
const CALLS = 60;

/** One account, one schedule: a plan's quota (with or without leases), some credits, CALLS calls through faults. */
async function run(seed: number, plan: "internal" | "business", startCredits: number) {
  const { userId, secret } = await seedUserWithKey({ plan });
  if (startCredits > 0) {
    await env.DB.prepare("INSERT INTO credit_ledger (user_id, amount, reason, ref, created_at) VALUES (?, ?, 'test', ?, ?)")
      .bind(userId, startCredits, `test:${userId}`, Date.now())
      .run();
  }
  const faults = new FaultPlan(seed, { rate: 0.3, targets: ["d1", "kv"] });
  // Uncached, so every call reads D1.
  const faulty = { ...faultyEnv(env, faults), RESPONSE_CACHE: "off" } as Env;
  let ok = 0;
  let unavailable = 0;
  let refused = 0;
  for (let i = 0; i < CALLS; i++) {
    const path = i % 7 === 6 ? "/api/v1/wilayah/nik" : PATHS[i % PATHS.length];
    const res =
      path === "/api/v1/wilayah/nik"
        ? await callWith(faulty, path, { key: secret, method: "POST", json: { nik: "3273094512900001" } })
        : await callWith(faulty, path, { key: secret });
    const requestId = res.headers.get("x-request-id");
    if (res.status === 200) {
      ok++;
      await res.arrayBuffer();
      continue;
    }
    const body = await json(res);
    expect(body.error.request_id, `seed ${seed} call ${i}`).toBe(requestId);
    if (res.status === 402) {
      expect(body.error.code).toBe("QUOTA_EXCEEDED");
      refused++;
      continue;
    }
    expect(res.status, `seed ${seed} call ${i}: ${JSON.stringify(body)}`).toBe(503);
    expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(res.headers.get("retry-after")).toBe("2");
    unavailable++;
  }
  const usage = await faults.calm(async () => {
    await drain(userId);
    return monthUsage(env, userId, currentMonth());
  });
  const quota = (await env.DB.prepare("SELECT monthly_quota AS q FROM plans WHERE id = ?").bind(plan).first<{ q: number }>())?.q ?? 0;
  const balance = (await faults.calm(() => credits(env, userId, { page: 1, per_page: 1 }))).balance;
  return { ok, unavailable, refused, usage: usage.total, spent: startCredits - balance, quota, injected: faults.injected };
}

describe("data calls while D1 and KV fail", () => {
  it(
    `answer or 503 SERVICE_UNAVAILABLE, never 500; usage = successful calls; credits spent = calls beyond the quota (at least ${MIN_FAULTS} faults)`,
    async () => {
      // `business` with a small quota, so credits are spent; `internal` is unlimited, so leases are granted.
      await env.DB.prepare("UPDATE plans SET monthly_quota = 25 WHERE id = 'business'").run();
      let injected = 0;
      let answered = 0;
      for (let seed = 1; injected < MIN_FAULTS; seed++) {
        const withCredits = seed % 2 === 0;
        const r = await run(seed, withCredits ? "business" : "internal", withCredits ? 20 : 0);
        expect(r.usage, `seed ${seed}`).toBe(r.ok);
        expect(r.spent, `seed ${seed}`).toBe(withCredits ? Math.max(0, r.ok - r.quota) : 0);
        // Never beyond quota + credits.
        if (withCredits) expect(r.ok).toBeLessThanOrEqual(r.quota + 20);
        injected += r.injected;
        answered += r.unavailable;
      }
      console.log(`data calls: ${injected} faults injected, ${answered} answered 503`);
      expect(answered).toBeGreaterThan(0);
    },
    FAULTS_TIMEOUT_MS,
  );
});
