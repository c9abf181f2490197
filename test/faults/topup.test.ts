/**
 * Issue 27, scenario 5: top-ups while Tripay's create call fails (refused connection, timing out
 * after Tripay made the transaction, a gateway error, the request reaching Tripay twice) and D1 fails
 * now and then; then Tripay's callbacks for whatever it made: PAID for what the payer paid (the QR we
 * showed, or, when we showed none, the one Tripay's own checkout shows), EXPIRED for the rest,
 * delivered until answered, sometimes twice at once, sometimes after our own expiry job closed the
 * invoice. Invariants after every schedule: a top-up request records at most one invoice (a 201 is
 * that invoice, with the reference Tripay gave); no invoice Tripay has a transaction for is ever
 * removed; each paid invoice is settled exactly once; money is never lost (credits in the ledger =
 * credits of the invoices whose transaction was paid).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { signSession } from "../../src/auth/tokens";
import { runScheduledBilling } from "../../src/billing/service";
import { seeded } from "../../src/lib/random";
import { json, seedUserWithKey } from "../helpers";
import { callWith, drain, FAULTS_TIMEOUT_MS, FaultPlan, faultyEnv, faultyFetch, MIN_FAULTS } from "./inject";
import { callbackBody, deliverWith, FakeTripay, TRIPAY, type Transaction } from "./tripay";

const REQUESTS = 3;

const one = async <T>(sql: string, ...params: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...params)
    .first<T>();
const invoiceCount = async (userId: string) => (await one<{ n: number }>("SELECT count(*) AS n FROM invoices WHERE user_id = ?", userId))!.n;

async function run(seed: number) {
  const random = seeded(seed * 104_729);
  const upstreamFaults = new FaultPlan(seed, { rate: 0.5, targets: ["fetch"] });
  const dbFaults = new FaultPlan(seed + 1_000_000, { rate: 0.1, targets: ["d1"] });
  const tripay = new FakeTripay();
  faultyFetch(upstreamFaults, tripay.upstream);
  const faulty = { ...faultyEnv(env, dbFaults), ...TRIPAY } as Env;
  const calm = { ...env, ...TRIPAY } as Env;
  const { userId } = await seedUserWithKey({ plan: "free" });
  const token = await signSession(env, { id: userId, email: `${userId}@example.test`, is_admin: false });

  // The top-ups, each asked once (the payer sees its answer).
  const shown = new Map<string, { reference: string; credits: number }>();
  const answers: Record<number, number> = {};
  for (let i = 0; i < REQUESTS; i++) {
    const before = await dbFaults.calm(() => invoiceCount(userId));
    const res = await callWith(faulty, "/billing/topup", { method: "POST", token, json: { amount: 10_000 + 2_000 * i } });
    const body = await json(res);
    const made = (await dbFaults.calm(() => invoiceCount(userId))) - before;
    answers[res.status] = (answers[res.status] ?? 0) + 1;
    const what = `seed ${seed} top-up ${i}: ${res.status} ${JSON.stringify(body)}`;
    if (res.status === 201) {
      expect(made, what).toBe(1);
      const row = await one<{ status: string; reference: string }>("SELECT status, reference FROM invoices WHERE id = ?", body.data.id);
      expect(row, what).toEqual({ status: "UNPAID", reference: body.data.reference });
      expect(
        tripay.ofInvoice(body.data.id).map((t) => t.reference),
        what,
      ).toContain(body.data.reference);
      shown.set(body.data.id, { reference: body.data.reference, credits: body.data.credits });
      continue;
    }
    // One invoice at most, and a clear error: the provider failed (502/504) or a dependency did (503); never a 500.
    expect(made, what).toBeLessThanOrEqual(1);
    expect(
      [
        [502, "UPSTREAM_ERROR"],
        [504, "UPSTREAM_TIMEOUT"],
        [503, "SERVICE_UNAVAILABLE"],
      ].map(String),
      what,
    ).toContain(String([res.status, body.error.code]));
    expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
  }

  // What Tripay made: the payer pays one transaction of an invoice (the QR we showed, else the one
  // Tripay's checkout shows them); Tripay reports the others expired.
  const byInvoice = new Map<string, Transaction[]>();
  for (const t of tripay.transactions) byInvoice.set(t.merchantRef, [...(byInvoice.get(t.merchantRef) ?? []), t]);
  const paid: Transaction[] = [];
  const expired: Transaction[] = [];
  for (const [invoiceId, txs] of byInvoice) {
    const payable = shown.has(invoiceId) ? txs.filter((t) => t.reference === shown.get(invoiceId)?.reference) : txs;
    const payment = random() < 0.8 ? payable[Math.floor(random() * payable.length)] : undefined;
    if (payment) paid.push(payment);
    for (const t of txs) if (t !== payment && random() < 0.6) expired.push(t);
  }
  // Callbacks in any order; our expiry job (an hour later) may run before some of them.
  const callbacks = [...paid.map((t) => ({ t, status: "PAID" as const })), ...expired.map((t) => ({ t, status: "EXPIRED" as const }))].sort(
    () => random() - 0.5,
  );
  const expiryAt = Math.floor(random() * (callbacks.length + 1));
  let unavailable = 0;
  for (let n = 0; n <= callbacks.length; n++) {
    if (n === expiryAt) await dbFaults.calm(() => runScheduledBilling(calm, Date.now() + 60 * 60_000));
    if (n === callbacks.length) break;
    const { t, status } = callbacks[n];
    const raw = callbackBody(t, status);
    let handled = false;
    for (let attempt = 0; !handled; attempt++) {
      expect(attempt, `seed ${seed}: callback ${n} never handled`).toBeLessThan(30);
      const copies = attempt === 0 && random() < 0.3 ? 2 : 1;
      for (const res of await Promise.all(Array.from({ length: copies }, () => deliverWith(faulty, raw)))) {
        const body = await json(res);
        if (res.status === 200) {
          expect(body).toEqual({ success: true });
          handled = true;
          continue;
        }
        // Tripay made a transaction for every invoice it names, and we never remove one it made: only a transient failure.
        expect([res.status, body.error.code], `seed ${seed}: callback ${status} ${t.reference}: ${JSON.stringify(body)}`).toEqual([503, "SERVICE_UNAVAILABLE"]);
        unavailable++;
      }
    }
    // Delivered again later (Tripay repeats a callback it thinks was lost): changes nothing.
    if (random() < 0.3) callbacks.push({ t, status });
  }

  await dbFaults.calm(drain);
  // Every transaction Tripay made names an invoice we still have; each paid one is settled once, with its credits.
  for (const t of tripay.transactions) {
    expect(await one("SELECT id FROM invoices WHERE id = ?", t.merchantRef), `seed ${seed}: invoice of ${t.reference} removed`).not.toBeNull();
  }
  let expected = 0;
  for (const t of paid) {
    const row = await one<{ status: string; credits: number }>("SELECT status, credits FROM invoices WHERE id = ?", t.merchantRef);
    expect(row?.status, `seed ${seed}: ${t.merchantRef} paid by ${t.reference}`).toBe("PAID");
    const entries = await env.DB.prepare("SELECT amount FROM credit_ledger WHERE ref = ?").bind(`invoice:${t.merchantRef}`).all<{ amount: number }>();
    expect(
      entries.results.map((e) => e.amount),
      `seed ${seed}: ${t.merchantRef}`,
    ).toEqual([row!.credits]);
    expected += row!.credits;
  }
  const ledger = (await one<{ sum: number }>("SELECT coalesce(sum(amount), 0) AS sum FROM credit_ledger WHERE user_id = ?", userId))!.sum;
  expect(ledger, `seed ${seed}: money received = credits`).toBe(expected);
  const unpaid = (await one<{ n: number }>("SELECT count(*) AS n FROM invoices WHERE user_id = ? AND status = 'PAID'", userId))!.n;
  expect(unpaid, `seed ${seed}: paid invoices`).toBe(paid.length);
  vi.restoreAllMocks();
  return { upstream: upstreamFaults.injected, db: dbFaults.injected, unavailable, answers, paid: paid.length, transactions: tripay.transactions.length };
}

describe("top-ups while Tripay times out, fails or answers twice, and D1 fails now and then", () => {
  it(
    `one invoice per request, none removed that Tripay made, each paid one settled once, money never lost (at least ${MIN_FAULTS} faults)`,
    async () => {
      const totals = { upstream: 0, db: 0, unavailable: 0, paid: 0, transactions: 0, schedules: 0 };
      const answers: Record<number, number> = {};
      for (let seed = 1; totals.upstream + totals.db < MIN_FAULTS; seed++, totals.schedules++) {
        const r = await run(seed);
        totals.upstream += r.upstream;
        totals.db += r.db;
        totals.unavailable += r.unavailable;
        totals.paid += r.paid;
        totals.transactions += r.transactions;
        for (const [status, n] of Object.entries(r.answers)) answers[Number(status)] = (answers[Number(status)] ?? 0) + n;
      }
      console.log(
        `top-up: ${totals.upstream + totals.db} faults injected (${totals.upstream} Tripay, ${totals.db} D1) over ${totals.schedules} schedules; top-up answers ${JSON.stringify(answers)}; ${totals.transactions} transactions, ${totals.paid} paid; ${totals.unavailable} callbacks answered 503`,
      );
      expect(answers[201]).toBeGreaterThan(0);
      expect(answers[504]).toBeGreaterThan(0);
    },
    FAULTS_TIMEOUT_MS,
  );
});
