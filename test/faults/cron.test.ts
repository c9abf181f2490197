/**
 * Issue 27, scenario 6: the cron job (every 5 minutes: unpaid invoices past their expiry become
 * EXPIRED, plans follow the subscriptions that started or ended, old auth rows are pruned) failing
 * half-way while D1, KV and the account objects fail, then run again. Invariants after every run:
 * each invoice and each plan is either as it was or as it must end (never another state, never
 * changed back); and once a run completes (the dependencies back), everything has converged: the
 * D1 state, and what the accounts enforce (a downgraded account's quota applies at once; no cached
 * key lookup still carries the old plan).
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { hashKeySecret } from "../../src/keys/secret";
import { newId } from "../../src/lib/crypto";
import { seedUserWithKey } from "../helpers";
import { callWith, drain, FAULTS_TIMEOUT_MS, FaultPlan, faultyEnv, MIN_FAULTS } from "./inject";

/** Plans' monthly quotas in this file: below 100, so no lease is granted and every call is the account object's decision. */
const QUOTAS: Record<string, number> = { free: 2, starter: 40, pro: 50 };
const MONTH = 30 * 86_400_000;

const one = async <T>(sql: string, ...params: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...params)
    .first<T>();
const run = (sql: string, ...params: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...params)
    .run();

async function subscription(userId: string, planId: string, start: number, end: number) {
  await run(
    "INSERT INTO subscriptions (id, user_id, plan_id, source, period_start, period_end, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    newId("sub"),
    userId,
    planId,
    `admin:${crypto.randomUUID()}`,
    start,
    end,
    start,
  );
}

async function invoice(userId: string, expiresAt: number, status = "UNPAID") {
  const id = newId("inv");
  await run(
    "INSERT INTO invoices (id, user_id, kind, plan_id, credits, amount, reference, status, closed_by, qr_string, qr_url, expires_at, paid_at, created_at) VALUES (?, ?, 'topup', NULL, 5000, 10000, ?, ?, ?, 'QR', NULL, ?, NULL, ?)",
    id,
    userId,
    `DEV-CRON-${id}`,
    status,
    status === "PAID" ? "provider" : null,
    expiresAt,
    expiresAt - 30 * 60_000,
  );
  return id;
}

/** The job as the platform runs it: the Worker's scheduled handler, its background work awaited. */
async function cron(bindings: Env) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), bindings, ctx);
  await waitOnExecutionContext(ctx);
}

async function schedule(seed: number) {
  const now = Date.now();
  const what = (s: string) => `seed ${seed}: ${s}`;
  // ended: a pro subscription that ended, with calls already beyond free's quota; next: a queued
  // starter that has started after an ended pro; running: a pro running on; none: free, nothing to do.
  const ended = await seedUserWithKey({ plan: "pro" });
  await subscription(ended.userId, "pro", now - MONTH - 60_000, now - 60_000);
  const next = await seedUserWithKey({ plan: "pro" });
  await subscription(next.userId, "pro", now - MONTH - 60_000, now - 60_000);
  await subscription(next.userId, "starter", now - 60_000, now + MONTH);
  const running = await seedUserWithKey({ plan: "pro" });
  await subscription(running.userId, "pro", now - 60_000, now + MONTH);
  const none = await seedUserWithKey({ plan: "free" });
  const overdue = await invoice(none.userId, now - 20 * 60_000);
  const fresh = await invoice(none.userId, now + 20 * 60_000);
  const settled = await invoice(none.userId, now - 20 * 60_000, "PAID");
  // The downgraded account's object and caches know it as pro: its lookup is in KV, its plan in the object.
  for (let i = 0; i < 3; i++) {
    const res = await callWith(env, "/api/v1/wilayah/provinsi/32", { key: ended.secret });
    expect(res.status, what("calls before the job")).toBe(200);
    await res.arrayBuffer();
  }
  await drain(ended.userId);

  const plans = [
    { userId: ended.userId, from: "pro", to: "free" },
    { userId: next.userId, from: "pro", to: "starter" },
    { userId: running.userId, from: "pro", to: "pro" },
    { userId: none.userId, from: "free", to: "free" },
  ];
  const invoices = [
    { id: overdue, from: "UNPAID/null", to: "EXPIRED/system" },
    { id: fresh, from: "UNPAID/null", to: "UNPAID/null" },
    { id: settled, from: "PAID/provider", to: "PAID/provider" },
  ];
  const state = async () => ({
    plans: await Promise.all(plans.map(async (p) => (await one<{ plan: string }>("SELECT plan FROM users WHERE id = ?", p.userId))!.plan)),
    invoices: await Promise.all(
      invoices.map(async (i) => {
        const r = (await one<{ status: string; closed_by: string | null }>("SELECT status, closed_by FROM invoices WHERE id = ?", i.id))!;
        return `${r.status}/${r.closed_by}`;
      }),
    ),
  });
  const check = (s: Awaited<ReturnType<typeof state>>, reached: boolean[], label: string) => {
    for (const [i, p] of plans.entries()) {
      expect([p.from, p.to], what(`${label}: plan of ${p.userId}`)).toContain(s.plans[i]);
      // Never back: once at its end, a plan stays there.
      if (reached[i]) expect(s.plans[i], what(`${label}: plan of ${p.userId} went back`)).toBe(p.to);
      reached[i] ||= s.plans[i] === p.to;
    }
    for (const [i, inv] of invoices.entries()) {
      expect([inv.from, inv.to], what(`${label}: invoice ${inv.id}`)).toContain(s.invoices[i]);
      if (reached[plans.length + i]) expect(s.invoices[i], what(`${label}: invoice ${inv.id} went back`)).toBe(inv.to);
      reached[plans.length + i] ||= s.invoices[i] === inv.to;
    }
  };

  // Two runs while the dependencies fail (a run's failures are logged by the job), then one once they are back.
  const faults = new FaultPlan(seed, { rate: 0.3, targets: ["d1", "kv", "account"] });
  const faulty = faultyEnv(env, faults);
  const reached: boolean[] = [];
  let failedRuns = 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    const logged = vi.spyOn(console, "error");
    if (attempt < 2) await cron(faulty);
    else await faults.calm(() => cron(faulty));
    const failures = logged.mock.calls
      .flat()
      .map(String)
      .filter((l) => l.includes("scheduled_job_failed"));
    logged.mockRestore();
    check(await faults.calm(state), reached, `run ${attempt}`);
    if (attempt === 2) expect(failures, what("the run after the dependencies came back")).toEqual([]);
    else if (failures.length) failedRuns++;
  }

  // Converged: the state, and what the accounts enforce.
  const s = await state();
  for (const [i, p] of plans.entries()) expect(s.plans[i], what(`plan of ${p.userId}`)).toBe(p.to);
  for (const [i, inv] of invoices.entries()) expect(s.invoices[i], what(`invoice ${inv.id}`)).toBe(inv.to);
  const downgraded = await callWith(env, "/api/v1/wilayah/provinsi/32", { key: ended.secret });
  expect(downgraded.status, what("a call of the downgraded account (free: 2 calls, 3 used)")).toBe(402);
  await downgraded.arrayBuffer();
  for (const k of [ended, next]) {
    const hash = await hashKeySecret(k.secret);
    const cached = await env.KV.get<{ ok: boolean; plan?: string; at?: number }>(`apikey:${hash}`, "json");
    const marker = await env.KV.get(`apikey-forgotten:${hash}`);
    const trusted = cached?.ok && !(marker !== null && (cached.at ?? 0) <= Number(marker) + 5_000);
    if (trusted) expect(cached?.plan, what(`KV lookup of ${k.userId}`)).toBe(plans.find((p) => p.userId === k.userId)?.to);
  }
  await drain(...plans.map((p) => p.userId));
  return { injected: faults.injected, failedRuns };
}

describe("the cron job failing half-way, run again", () => {
  const saved: { id: string; q: number }[] = [];
  beforeAll(async () => {
    for (const [id, q] of Object.entries(QUOTAS)) {
      saved.push({ id, q: (await one<{ q: number }>("SELECT monthly_quota AS q FROM plans WHERE id = ?", id))!.q });
      await run("UPDATE plans SET monthly_quota = ? WHERE id = ?", q, id);
    }
  });
  afterAll(async () => {
    for (const s of saved) await run("UPDATE plans SET monthly_quota = ? WHERE id = ?", s.q, s.id);
  });

  it(
    `each state as it was or as it must end, never back; the next complete run converges, caches included (at least ${MIN_FAULTS} faults)`,
    async () => {
      let injected = 0;
      let failedRuns = 0;
      let schedules = 0;
      for (let seed = 1; injected < MIN_FAULTS; seed++, schedules++) {
        const r = await schedule(seed);
        injected += r.injected;
        failedRuns += r.failedRuns;
      }
      console.log(`cron: ${injected} faults injected over ${schedules} schedules, ${failedRuns} runs failed half-way`);
      expect(failedRuns).toBeGreaterThan(0);
    },
    FAULTS_TIMEOUT_MS,
  );
});
