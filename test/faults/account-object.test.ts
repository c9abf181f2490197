/**
 * Issue 27, scenario 3: the per-account Durable Object failing (its calls refused, timing out, or
 * answering after it acted but the answer lost) and restarting while leases are out. Invariants
 * after each schedule: no call is served beyond quota + credits; usage is never counted above the
 * successful calls except for give-backs that failed every retry (each logged), and is lost only
 * within the bound docs/api.md states (the calls of a lease whose settle failed twice).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { AccountObject } from "../../src/account/object";
import { LEASE_MAX_CALLS } from "../../src/account/rules";
import { currentMonth, monthUsage } from "../../src/account/usage";
import { credits } from "../../src/billing/service";
import { json, seedUserWithKey } from "../helpers";
import { callWith, drain, FAULTS_TIMEOUT_MS, FaultPlan, faultyEnv, MIN_FAULTS } from "./inject";

const CALLS = 60;

async function run(seed: number, plan: "internal" | "business", startCredits: number) {
  const { userId, secret } = await seedUserWithKey({ plan });
  if (startCredits > 0) {
    await env.DB.prepare("INSERT INTO credit_ledger (user_id, amount, reason, ref, created_at) VALUES (?, ?, 'test', ?, ?)")
      .bind(userId, startCredits, `test:${userId}`, Date.now())
      .run();
  }
  const faults = new FaultPlan(seed, { rate: 0.25, targets: ["account"] });
  const faulty = faultyEnv(env, faults);
  const logged = vi.spyOn(console, "error");
  let ok = 0;
  for (let i = 0; i < CALLS; i++) {
    // Now and then the object restarts: what it held in memory is gone, its storage stays.
    if (i % 20 === 19) {
      await drain(userId);
      const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(userId));
      await runInDurableObject(stub, (_object: AccountObject, state) => {
        try {
          state.abort("restart (test)");
        } catch {
          // abort throws in the caller by design
        }
      }).catch(() => undefined);
    }
    const res = await callWith(faulty, `/api/v1/wilayah/provinsi/${["32", "33", "35"][i % 3]}`, { key: secret });
    if (res.status === 200) {
      ok++;
      await res.arrayBuffer();
      continue;
    }
    const body = await json(res);
    expect([402, 503], `seed ${seed} call ${i}: ${res.status} ${JSON.stringify(body)}`).toContain(res.status);
    expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
  }
  const usage = await faults.calm(async () => {
    await drain(userId);
    return monthUsage(env, userId, currentMonth());
  });
  const giveBackFailures = logged.mock.calls
    .flat()
    .map(String)
    .filter((l) => l.includes("account_give_back_failed")).length;
  logged.mockRestore();
  const quota = (await env.DB.prepare("SELECT monthly_quota AS q FROM plans WHERE id = ?").bind(plan).first<{ q: number }>())?.q ?? 0;
  const balance = (await faults.calm(() => credits(env, userId, { page: 1, per_page: 1 }))).balance;
  const settleFaults = faults.byOperation.get("account.settle") ?? 0;
  return { ok, usage: usage.total, quota, balance, giveBackFailures, settleFaults, injected: faults.injected };
}

describe("the account object failing and restarting mid-lease", () => {
  it(
    `serves no call beyond quota + credits, and counts usage within the stated bound (at least ${MIN_FAULTS} faults)`,
    async () => {
      await env.DB.prepare("UPDATE plans SET monthly_quota = 25 WHERE id = 'business'").run();
      let injected = 0;
      for (let seed = 101; injected < MIN_FAULTS; seed++) {
        const withCredits = seed % 2 === 0;
        const r = await run(seed, withCredits ? "business" : "internal", withCredits ? 20 : 0);
        if (withCredits) {
          expect(r.ok, `seed ${seed}`).toBeLessThanOrEqual(r.quota + 20);
          // Credits are never spent beyond the balance; none are created.
          expect(r.balance, `seed ${seed}`).toBeGreaterThanOrEqual(0);
        }
        expect(r.usage, `seed ${seed}: overcounted`).toBeLessThanOrEqual(r.ok + r.giveBackFailures);
        expect(r.ok - r.usage, `seed ${seed}: lost beyond the bound`).toBeLessThanOrEqual(r.settleFaults * LEASE_MAX_CALLS);
        injected += r.injected;
      }
      console.log(`account object: ${injected} faults injected`);
    },
    FAULTS_TIMEOUT_MS,
  );
});
