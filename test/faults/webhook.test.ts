/**
 * Issue 27, scenario 1: Tripay's payment callbacks (PAID, EXPIRED, FAILED, REFUND; repeated, stale,
 * concurrent, after our own expiry) settled while D1 fails at any statement. Every answer is
 * `{"success": true}` or a 503 SERVICE_UNAVAILABLE (a 5xx, so Tripay delivers again); after every
 * answer the invoice is either untouched or fully settled (status, ledger entry, subscription, plan,
 * audit event); delivered again until handled, each callback settles exactly once. The test keeps a
 * model of what the rules in docs/api.md say must happen, and between callbacks spends credits
 * with data calls, so it also sees what the account object admits after each settlement. Invariants
 * after every schedule: the ledger equals the model, and credits in the ledger = credits of paid
 * top-ups - credits taken back by refunds - credits spent + credits given back.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AccountObject } from "../../src/account/object";
import { signSession } from "../../src/auth/tokens";
import { runScheduledBilling } from "../../src/billing/service";
import { seeded } from "../../src/lib/random";
import { json, seedUserWithKey } from "../helpers";
import { callWith, drain, FAULTS_TIMEOUT_MS, FaultPlan, faultyEnv, faultyFetch, MIN_FAULTS } from "./inject";
import { type CallbackStatus, callbackBody, deliverWith, FakeTripay, TRIPAY } from "./tripay";

type Status = "UNPAID" | "PAID" | "EXPIRED" | "FAILED" | "REFUNDED";
/** An invoice as the model knows it. Subscription periods in months from now (0 = now). */
type Invoice = {
  id: string;
  kind: "topup" | "subscription";
  amount: number;
  credits: number;
  planId: string | null;
  reference: string;
  status: Status;
  closedBy: "system" | "provider" | null;
  start?: number;
  end?: number;
};

/** Plans' monthly quotas in this file: below 100 calls, so no lease is granted and every call is decided by the account object. */
const QUOTAS: Record<string, number> = { zero: 0, free: 30, starter: 40 };

/** What docs/api.md says the account must look like: the model every answer is checked against. */
class Model {
  balance = 0;
  spent = 0;
  used = 0;
  plan = "zero";
  paidCredits = 0;
  taken = 0;
  invoices: Invoice[] = [];

  clone(): Model {
    const m = Object.assign(new Model(), this);
    m.invoices = this.invoices.map((i) => ({ ...i }));
    return m;
  }

  #running(): Invoice | undefined {
    return this.invoices.find((i) => i.kind === "subscription" && i.start !== undefined && i.start <= 0 && (i.end ?? 0) > 0);
  }

  #settleable(inv: Invoice) {
    return inv.status === "UNPAID" || (inv.status === "EXPIRED" && inv.closedBy === "system");
  }

  /** A callback handled (answered `{"success": true}`). */
  callback(inv: Invoice, status: CallbackStatus) {
    if (status === "PAID" && this.#settleable(inv)) {
      inv.status = "PAID";
      inv.closedBy = "provider";
      if (inv.kind === "topup") {
        this.balance += inv.credits;
        this.paidCredits += inv.credits;
      } else {
        // Queued after the user's last period (a refunded one ended when refunded).
        const last = Math.max(0, ...this.invoices.filter((i) => i.end !== undefined).map((i) => i.end ?? 0));
        inv.start = last;
        inv.end = last + 1;
        this.plan = this.#running()?.planId ?? "free";
      }
    } else if ((status === "EXPIRED" || status === "FAILED") && this.#settleable(inv)) {
      inv.status = status;
      inv.closedBy = "provider";
    } else if (status === "REFUND" && inv.status === "PAID") {
      inv.status = "REFUNDED";
      if (inv.kind === "topup") {
        const take = Math.max(0, Math.min(inv.credits, this.balance));
        this.balance -= take;
        this.taken += take;
      } else {
        inv.end = Math.max(inv.start ?? 0, Math.min(inv.end ?? 0, 0));
        this.plan = this.#running()?.planId ?? "free";
      }
    }
  }

  /** Our expiry job, an hour later: every unpaid invoice is overdue; the plan is the running subscription's, or free. */
  expiryJob() {
    for (const inv of this.invoices) {
      if (inv.status === "UNPAID") {
        inv.status = "EXPIRED";
        inv.closedBy = "system";
      }
    }
    this.plan = this.#running()?.planId ?? "free";
  }

  /** A data call: free within the quota, else a credit, else refused. True when it must be served. */
  dataCall(): boolean {
    if (this.used < QUOTAS[this.plan]) {
      this.used++;
      return true;
    }
    if (this.balance >= 1) {
      this.balance--;
      this.spent++;
      this.used++;
      return true;
    }
    return false;
  }
}

const one = async <T>(sql: string, ...params: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...params)
    .first<T>();

/** What D1 holds for an invoice: its status and every effect its settlement writes. */
async function stored(inv: Invoice) {
  const row = await one<{ status: Status; closed_by: "system" | "provider" | null }>("SELECT status, closed_by FROM invoices WHERE id = ?", inv.id);
  const credit = await one<{ amount: number }>("SELECT amount FROM credit_ledger WHERE ref = ?", `invoice:${inv.id}`);
  const refund = await one<{ amount: number }>("SELECT amount FROM credit_ledger WHERE ref = ?", `refund:${inv.id}`);
  const sub = await one<{ id: string }>("SELECT id FROM subscriptions WHERE source = ?", `invoice:${inv.id}`);
  const audits = await one<{ n: number }>(
    "SELECT count(*) AS n FROM audit_events WHERE event = 'payment_refunded' AND json_extract(detail, '$.invoice_id') = ?",
    inv.id,
  );
  return {
    status: row!.status,
    closedBy: row!.closed_by,
    credit: credit?.amount ?? null,
    refunded: refund !== null,
    subscribed: sub !== null,
    audits: audits!.n,
  };
}

/** The stored state is one whole state: every effect of the status is there, and nothing of a status it does not have. */
function expectWhole(s: Awaited<ReturnType<typeof stored>>, inv: Invoice, what: string) {
  const settled = s.status === "PAID" || s.status === "REFUNDED";
  if (inv.kind === "topup") expect(s.credit, `${what}: top-up credit`).toBe(settled ? inv.credits : null);
  else expect(s.subscribed, `${what}: subscription`).toBe(settled);
  expect(s.refunded, `${what}: refund entry`).toBe(s.status === "REFUNDED");
  expect(s.audits, `${what}: refund audit events`).toBe(s.status === "REFUNDED" ? 1 : 0);
}

const planOf = async (userId: string) => (await one<{ plan: string }>("SELECT plan FROM users WHERE id = ?", userId))!.plan;

async function run(seed: number) {
  const random = seeded(seed * 7919);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const subscriptions = seed % 2 === 0;
  const faults = new FaultPlan(seed, { rate: 0.3, targets: ["d1"] });
  const tripay = new FakeTripay();
  faultyFetch(faults, tripay.upstream);
  const calm = { ...env, ...TRIPAY } as Env;
  const faulty = { ...faultyEnv(env, faults), ...TRIPAY } as Env;

  const { userId, secret } = await seedUserWithKey({ plan: "zero" });
  const token = await signSession(env, { id: userId, email: `${userId}@example.test`, is_admin: false });
  const model = new Model();
  const order: ("topup" | "subscription")[] = subscriptions ? ["subscription", "topup", "subscription"] : ["topup", "topup", "topup"];
  for (const [i, kind] of order.entries()) {
    const res =
      kind === "topup"
        ? await callWith(calm, "/billing/topup", { method: "POST", token, json: { amount: [10_000, 12_000, 14_000][i] } })
        : await callWith(calm, "/billing/subscribe", { method: "POST", token, json: { plan_id: "starter" } });
    expect(res.status, `seed ${seed}: invoice ${i}`).toBe(201);
    const d = (await json(res)).data;
    model.invoices.push({
      id: d.id,
      kind,
      amount: d.amount,
      credits: d.credits ?? 0,
      planId: d.plan_id,
      reference: d.reference,
      status: "UNPAID",
      closedBy: null,
    });
  }

  // Each invoice's story, in Tripay's order for it; the stories interleave, with stale repeats of earlier callbacks.
  const stories: CallbackStatus[][] = model.invoices.map(() =>
    pick<CallbackStatus[]>([["PAID"], ["PAID", "REFUND"], ["PAID", "REFUND", "PAID"], ["EXPIRED", "PAID"], ["FAILED"], ["PAID", "PAID"], []]),
  );
  type Step = { kind: "callback"; inv: Invoice; status: CallbackStatus } | { kind: "calls"; n: number } | { kind: "expiry" };
  const steps: Step[] = [];
  const next = stories.map(() => 0);
  let expiryDone = false;
  while (next.some((n, i) => n < stories[i].length)) {
    const r = random();
    if (r < 0.25) steps.push({ kind: "calls", n: 1 + Math.floor(random() * 4) });
    else if (r < 0.3 && !expiryDone) {
      steps.push({ kind: "expiry" });
      expiryDone = true;
    } else {
      const open = stories.map((_, i) => i).filter((i) => next[i] < stories[i].length);
      const i = pick(open);
      steps.push({ kind: "callback", inv: model.invoices[i], status: stories[i][next[i]++] });
    }
  }
  steps.push({ kind: "calls", n: 3 });

  let unavailable = 0;
  for (const [n, step] of steps.entries()) {
    const what = `seed ${seed} step ${n}`;
    if (step.kind === "expiry") {
      await drain(userId);
      await runScheduledBilling(calm, Date.now() + 60 * 60_000);
      model.expiryJob();
      continue;
    }
    if (step.kind === "calls") {
      // What the account object admits must follow every settlement at once (the payment refreshes it).
      await faults.calm(() => drain(userId));
      for (let c = 0; c < step.n; c++) {
        const res = await callWith(calm, "/api/v1/wilayah/provinsi/32", { key: secret });
        const expected = model.dataCall() ? 200 : 402;
        expect(res.status, `${what}: data call ${c} on plan ${model.plan}, balance ${model.balance}, used ${model.used}`).toBe(expected);
        await res.arrayBuffer();
      }
      continue;
    }
    const { inv, status } = step;
    const before = { status: inv.status, closedBy: inv.closedBy };
    const after = model.clone();
    const target = after.invoices.find((i) => i.id === inv.id)!;
    after.callback(target, status);
    const raw = callbackBody({ reference: inv.reference, merchantRef: inv.id, amount: inv.amount }, status);
    // Delivered again until handled, as Tripay does; now and then two deliveries overlap.
    let handled = false;
    for (let attempt = 0; !handled; attempt++) {
      expect(attempt, `${what}: still failing ${JSON.stringify([...faults.byOperation])}`).toBeLessThan(50);
      const concurrent = attempt === 0 && random() < 0.2 ? 2 : 1;
      const answers = await Promise.all(Array.from({ length: concurrent }, () => deliverWith(faulty, raw)));
      for (const res of answers) {
        if (res.status === 200) {
          expect(await res.json()).toEqual({ success: true });
          handled = true;
          continue;
        }
        const body = await json(res);
        expect(res.status, `${what} (${inv.kind} ${status}): ${JSON.stringify(body)}`).toBe(503);
        expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
        expect(res.headers.get("retry-after")).toBe("2");
        expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
        unavailable++;
      }
      // Untouched or fully settled, after every answer.
      const s = await faults.calm(() => stored(inv));
      expectWhole(s, inv, `${what} attempt ${attempt}`);
      const states = [`${before.status}/${before.closedBy}`, `${target.status}/${target.closedBy}`];
      expect(states, `${what} attempt ${attempt}: ${inv.kind} ${status}`).toContain(`${s.status}/${s.closedBy}`);
      if (handled) expect(`${s.status}/${s.closedBy}`, `${what}: handled`).toBe(states[1]);
    }
    model.callback(inv, status);
    expect(await faults.calm(() => planOf(userId)), `${what}: plan`).toBe(model.plan);
  }

  // The account object's spending reaches the ledger.
  await faults.calm(async () => {
    await drain(userId);
    await runInDurableObject(env.ACCOUNT.get(env.ACCOUNT.idFromName(userId)), (object: AccountObject) => object.flush());
  });
  const ledger = (await one<{ sum: number }>("SELECT coalesce(sum(amount), 0) AS sum FROM credit_ledger WHERE user_id = ?", userId))!.sum;
  const givenBack = (await one<{ sum: number }>(
    "SELECT coalesce(sum(amount), 0) AS sum FROM credit_ledger WHERE user_id = ? AND reason LIKE 'credits given back%'",
    userId,
  ))!.sum;
  expect(ledger, `seed ${seed}: ledger vs model`).toBe(model.balance);
  expect(ledger, `seed ${seed}: paid - taken back - spent + given back`).toBe(model.paidCredits - model.taken - model.spent + givenBack);
  for (const inv of model.invoices) {
    const s = await stored(inv);
    expect(`${s.status}/${s.closedBy}`, `seed ${seed}: ${inv.id}`).toBe(`${inv.status}/${inv.closedBy}`);
    expectWhole(s, inv, `seed ${seed}: ${inv.id}`);
  }
  const subs = (await one<{ n: number }>("SELECT count(*) AS n FROM subscriptions WHERE user_id = ?", userId))!.n;
  expect(subs, `seed ${seed}: subscriptions`).toBe(model.invoices.filter((i) => i.start !== undefined).length);
  expect(await planOf(userId), `seed ${seed}: plan`).toBe(model.plan);
  vi.restoreAllMocks();
  return { injected: faults.injected, unavailable, spent: model.spent };
}

describe("Tripay callbacks while D1 fails at any statement", () => {
  const saved: { id: string; q: number }[] = [];
  beforeAll(async () => {
    for (const id of ["free", "starter"]) saved.push({ id, q: (await one<{ q: number }>("SELECT monthly_quota AS q FROM plans WHERE id = ?", id))!.q });
    for (const [id, q] of Object.entries(QUOTAS)) {
      await env.DB.prepare(
        "INSERT INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES (?, ?, 0, ?, 1000, '[]', 90, 0) ON CONFLICT (id) DO UPDATE SET monthly_quota = excluded.monthly_quota",
      )
        .bind(id, id, q)
        .run();
    }
  });
  afterAll(async () => {
    for (const s of saved) await env.DB.prepare("UPDATE plans SET monthly_quota = ? WHERE id = ?").bind(s.q, s.id).run();
  });

  it(
    `answer success or 503; untouched or fully settled after every answer; each callback settles once; ledger = paid - taken back - spent + given back (at least ${MIN_FAULTS} faults)`,
    async () => {
      let injected = 0;
      let unavailable = 0;
      let spent = 0;
      let schedules = 0;
      for (let seed = 1; injected < MIN_FAULTS; seed++, schedules++) {
        const r = await run(seed);
        injected += r.injected;
        unavailable += r.unavailable;
        spent += r.spent;
      }
      console.log(`webhook: ${injected} faults injected over ${schedules} schedules, ${unavailable} deliveries answered 503, ${spent} credits spent`);
      expect(unavailable).toBeGreaterThan(0);
    },
    FAULTS_TIMEOUT_MS,
  );
});
