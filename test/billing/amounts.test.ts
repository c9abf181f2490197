/**
 * Issue 33, section 2: a signed callback is credited only when every figure agrees with the invoice
 * (`total_amount - fee_customer` and, when present, `amount_received + fee_merchant`), in each fee mode.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectError, json, verifiedDeveloper } from "../helpers";
import { deliver, paid, topupInvoice, withTripay } from "./tripay-helpers";

withTripay();

const AMOUNT = 20_000;
const FEE = 750;

/** Tripay's figures for each fee mode: who pays the fee (merchant, customer, or split 500/250). */
const MODES = {
  merchant: { total_amount: AMOUNT, fee_customer: 0, fee_merchant: FEE, amount_received: AMOUNT - FEE },
  customer: { total_amount: AMOUNT + FEE, fee_customer: FEE, fee_merchant: 0, amount_received: AMOUNT },
  split: { total_amount: AMOUNT + 250, fee_customer: 250, fee_merchant: 500, amount_received: AMOUNT - 500 },
} as const;

async function state(token: string, invoiceId: string, userId: string) {
  const balance = (await json(await call("/billing/credits", { token }))).data.balance;
  const invoice = (await json(await call(`/billing/invoices/${invoiceId}`, { token }))).data;
  const events = await env.DB.prepare("SELECT detail FROM audit_events WHERE event = 'payment_amount_mismatch' AND subject_id = ?")
    .bind(userId)
    .all<{ detail: string }>();
  return { balance, status: invoice.status, paidAt: invoice.paid_at, events: events.results.map((r) => JSON.parse(r.detail)) };
}

describe.each(Object.entries(MODES))("fee on the %s", (_mode, figures) => {
  it("figures that agree: credited", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token, AMOUNT);
    expect(await json(await deliver({ ...paid(inv), ...figures }))).toEqual({ success: true });
    const after = await state(dev.token, inv.id, dev.data.id);
    expect(after).toMatchObject({ balance: AMOUNT / 2, status: "PAID", events: [] });
  });

  it.each([
    ["total_amount disagrees, amount_received + fee_merchant agrees", { total_amount: figures.total_amount + 5_000 }],
    ["total_amount short, amount_received + fee_merchant agrees", { total_amount: figures.total_amount - 5_000 }],
    ["amount_received disagrees, total_amount - fee_customer agrees", { amount_received: figures.amount_received - 1_000 }],
    ["fee_merchant disagrees", { fee_merchant: figures.fee_merchant + 100 }],
    ["fee_customer disagrees", { fee_customer: figures.fee_customer + 100 }],
  ])("%s: 409, nothing credited, the invoice as it was, an audit event", async (_what, change) => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token, AMOUNT);
    const body = { ...paid(inv), ...figures, ...change };
    await expectError(await deliver(body), 409, "PAYMENT_AMOUNT_MISMATCH");
    // A repeated delivery is refused the same way.
    await expectError(await deliver(body), 409, "PAYMENT_AMOUNT_MISMATCH");
    const after = await state(dev.token, inv.id, dev.data.id);
    expect(after).toMatchObject({ balance: 0, status: "UNPAID", paidAt: null });
    expect(after.events).toHaveLength(2);
    expect(after.events[0]).toEqual({
      invoice_id: inv.id,
      reference: inv.reference,
      status: "PAID",
      invoice_amount: AMOUNT,
      total_amount: body.total_amount,
      fee_customer: body.fee_customer,
      fee_merchant: body.fee_merchant,
      amount_received: body.amount_received,
    });
    // The invoice can still be settled by a delivery whose figures agree.
    expect(await json(await deliver({ ...paid(inv), ...figures }))).toEqual({ success: true });
    expect((await state(dev.token, inv.id, dev.data.id)).balance).toBe(AMOUNT / 2);
  });
});

it("without amount_received: total_amount - fee_customer decides", async () => {
  const dev = await verifiedDeveloper();
  const inv = await topupInvoice(dev.token, AMOUNT);
  const { amount_received: _r, fee_merchant: _f, ...body } = { ...paid(inv), total_amount: AMOUNT + FEE, fee_customer: FEE };
  await expectError(await deliver({ ...body, total_amount: AMOUNT + FEE + 1 }), 409, "PAYMENT_AMOUNT_MISMATCH");
  expect(await json(await deliver(body))).toEqual({ success: true });
  expect((await state(dev.token, inv.id, dev.data.id)).balance).toBe(AMOUNT / 2);
});

describe("refunds never take the balance below zero (issue 33, section 7)", () => {
  it("two refunds at once, with part of the credits spent: together they take back what is left, no more", async () => {
    const dev = await verifiedDeveloper();
    const first = await topupInvoice(dev.token, AMOUNT);
    const second = await topupInvoice(dev.token, AMOUNT);
    await deliver(paid(first));
    await deliver(paid(second));
    // 20,000 credits bought, 15,000 spent: 5,000 left.
    await env.DB.prepare("INSERT INTO credit_ledger (user_id, amount, reason, ref, created_at) VALUES (?, -15000, 'spent', ?, ?)")
      .bind(dev.data.id, `spent:${first.id}`, Date.now())
      .run();
    const answers = await Promise.all([deliver(paid(first, "REFUND")), deliver(paid(second, "REFUND"))]);
    for (const a of answers) expect(await json(a)).toEqual({ success: true });
    const { balance, ledger } = (await json(await call("/billing/credits?per_page=100", { token: dev.token }))).data;
    expect(balance).toBe(0);
    const refunds = ledger.filter((e: { reason: string }) => e.reason.startsWith("refund of top-up"));
    expect(refunds).toHaveLength(2);
    expect(refunds.reduce((n: number, e: { amount: number }) => n + e.amount, 0)).toBe(-5_000);
    // Each entry says how many it could not take back.
    expect(refunds.map((e: { reason: string }) => e.reason).join(" ")).toContain("could not be (already spent)");
  });
});
