import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { callbackSignature, transactionSignature } from "../../src/billing/signature";
import worker from "../../src/index";
import { call, expectError, json, login, verifiedDeveloper } from "../helpers";
import { signedUp } from "../portal/browser";
import { deliver, paid, TRIPAY, topupInvoice, tripayAnswers, withTripay } from "./tripay-helpers";

withTripay();

const balanceOf = async (token: string) => (await json(await call("/billing/credits", { token }))).data.balance;
const invoicesOf = async (userId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM invoices WHERE user_id = ?").bind(userId).first<{ n: number }>())!.n;

describe("top-up and subscribe", () => {
  it("without Tripay configuration: 503 PAYMENT_NOT_CONFIGURED and nothing written", async () => {
    for (const k of Object.keys(TRIPAY)) delete (env as any)[k];
    const dev = await verifiedDeveloper();
    const spy = vi.spyOn(globalThis, "fetch");
    await expectError(await call("/billing/topup", { method: "POST", token: dev.token, json: { amount: 20_000 } }), 503, "PAYMENT_NOT_CONFIGURED");
    await expectError(await call("/billing/subscribe", { method: "POST", token: dev.token, json: { plan_id: "pro" } }), 503, "PAYMENT_NOT_CONFIGURED");
    expect(spy).not.toHaveBeenCalled();
    expect(await invoicesOf(dev.data.id)).toBe(0);
  });

  it("the local payment simulator (development, PAYMENT_SIMULATOR=on, no Tripay): an invoice made without the provider, paid from the portal through the signed callback's checks; never in production", async () => {
    for (const k of Object.keys(TRIPAY)) delete (env as any)[k];
    const spy = vi.spyOn(globalThis, "fetch");
    (env as any).PAYMENT_SIMULATOR = "on";
    try {
      const { b, email, link } = await signedUp();
      await b.get(link.pathname + link.search);
      const token = (await json(await login(email, "correct horse"))).token as string;
      const billing = await (await b.get("/portal/billing", { "accept-language": "en" })).text();
      expect(billing).toContain('data-testid="payment-simulator"');
      const made = await b.post("/portal/billing/topup", { amount: "20000" });
      expect(made.status).toBe(303);
      const at = made.headers.get("location")!;
      const page = await (await b.get(at, { "accept-language": "en" })).text();
      expect(page).toContain('data-testid="pay-simulated"');
      const id = at.split("/").at(-1)!;
      // Nothing reached a provider; a forged callback (another key) is still refused.
      expect(spy).not.toHaveBeenCalled();
      const inv = (await json(await call(`/billing/invoices/${id}`, { token }))).data;
      expect(inv).toMatchObject({ status: "UNPAID", reference: `SIM-${id}` });
      expect((await deliver(paid(inv))).status).toBe(401);
      const payed = await b.post(`${at}/simulate`, {});
      expect(payed.status).toBe(303);
      expect((await json(await call(`/billing/invoices/${id}`, { token }))).data.status).toBe("PAID");
      expect(await balanceOf(token)).toBe(10_000);
      // A production Worker never simulates: 503, and the simulate route is not there.
      (env as any).ENVIRONMENT = "production";
      await expectError(await call("/billing/topup", { method: "POST", token, json: { amount: 20_000 } }), 503, "PAYMENT_NOT_CONFIGURED");
      expect((await b.post(`${at}/simulate`, {})).status).toBe(404);
    } finally {
      (env as any).ENVIRONMENT = "development";
      delete (env as any).PAYMENT_SIMULATOR;
    }
  });

  it("creates a signed QRIS transaction and returns the invoice with a QR image", async () => {
    const dev = await verifiedDeveloper();
    const spy = tripayAnswers();
    const res = await call("/billing/topup", { method: "POST", token: dev.token, json: { amount: 20_000 } });
    expect(res.status).toBe(201);
    const inv = (await json(res)).data;
    expect(inv).toMatchObject({
      id: expect.stringMatching(/^inv_/),
      kind: "topup",
      amount: 20_000,
      credits: 10_000,
      plan_id: null,
      status: "UNPAID",
      qr_string: "SANDBOX MODE",
      paid_at: null,
    });
    expect(inv.qr_image).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(atob(inv.qr_image.split(",")[1])).toContain("<svg");
    expect(Date.parse(inv.expires_at)).toBeGreaterThan(Date.now());

    const [url, init] = spy.mock.calls[0];
    expect(url).toBe("https://tripay.co.id/api-sandbox/transaction/create");
    expect((init!.headers as Record<string, string>).authorization).toBe("Bearer DEV-test-api-key");
    const sent = JSON.parse(String(init!.body));
    expect(sent).toMatchObject({
      method: "QRIS",
      merchant_ref: inv.id,
      amount: 20_000,
      customer_email: dev.data.email,
      order_items: [{ price: 20_000, quantity: 1 }],
    });
    expect(sent.signature).toBe(await transactionSignature(TRIPAY.TRIPAY_PRIVATE_KEY, "T0001", inv.id, 20_000));
  });

  it.each([[500], [10_500], [6_000_000], ["20000"], [20_000.5]])("amount %s: 400 VALIDATION_ERROR", async (amount) => {
    const dev = await verifiedDeveloper();
    await expectError(await call("/billing/topup", { method: "POST", token: dev.token, json: { amount } }), 400, "VALIDATION_ERROR");
  });

  it("provider refused: 502 UPSTREAM_ERROR and no invoice", async () => {
    const dev = await verifiedDeveloper();
    tripayAnswers({ fail: "refused" });
    await expectError(await call("/billing/topup", { method: "POST", token: dev.token, json: { amount: 20_000 } }), 502, "UPSTREAM_ERROR");
    expect(await invoicesOf(dev.data.id)).toBe(0);
  });

  it.each([
    ["timeout", 504, "UPSTREAM_TIMEOUT"],
    ["error", 502, "UPSTREAM_ERROR"],
  ] as const)(
    "provider %s: %i %s; the provider may have made the transaction, so its invoice stays (closed by us) and a signed PAID still credits it once",
    async (fail, status, code) => {
      const dev = await verifiedDeveloper();
      tripayAnswers({ fail });
      await expectError(await call("/billing/topup", { method: "POST", token: dev.token, json: { amount: 20_000 } }), status, code);
      vi.restoreAllMocks();
      const row = (await env.DB.prepare("SELECT id, amount, status, closed_by FROM invoices WHERE user_id = ?")
        .bind(dev.data.id)
        .first<{ id: string; amount: number; status: string; closed_by: string }>())!;
      expect(row).toMatchObject({ status: "EXPIRED", closed_by: "system" });
      const late = { id: row.id, reference: "DEV-T0001LATE", amount: row.amount };
      expect(await json(await deliver(paid(late)))).toEqual({ success: true });
      expect(await json(await deliver(paid(late)))).toEqual({ success: true });
      expect(await balanceOf(dev.token)).toBe(10_000);
    },
  );

  it("a provider answer whose reference another invoice already has: 502 UPSTREAM_ERROR (never a 500), logged with both, nothing adopted", async () => {
    const dev = await verifiedDeveloper();
    const first = await topupInvoice(dev.token);
    const other = await verifiedDeveloper();
    tripayAnswers({ reference: first.reference });
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    await expectError(await call("/billing/topup", { method: "POST", token: other.token, json: { amount: 50_000 } }), 502, "UPSTREAM_ERROR");
    const logged = log.mock.calls.flat().join(" ");
    expect(logged).toContain(first.reference);
    expect(logged).toContain(first.id);
    const rows = await env.DB.prepare("SELECT id, reference FROM invoices WHERE reference = ?").bind(first.reference).all();
    expect(rows.results).toEqual([{ id: first.id, reference: first.reference }]);
    // The first invoice is untouched: its payment still credits its owner.
    vi.restoreAllMocks();
    await deliver(paid(first));
    expect(await balanceOf(dev.token)).toBe(10_000);
    expect(await balanceOf(other.token)).toBe(0);
  });

  it("when our own write fails after the provider made the transaction (500), the invoice was recorded first: its PAID credits", async () => {
    const dev = await verifiedDeveloper();
    tripayAnswers({ reference: "DEV-T0001WRITEFAIL" });
    await env.DB.prepare("CREATE TRIGGER fail_adopt BEFORE UPDATE OF reference ON invoices BEGIN SELECT RAISE(ABORT, 'disk on fire'); END").run();
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expectError(await call("/billing/topup", { method: "POST", token: dev.token, json: { amount: 20_000 } }), 500, "INTERNAL_ERROR");
    } finally {
      await env.DB.prepare("DROP TRIGGER fail_adopt").run();
    }
    log.mockRestore();
    vi.restoreAllMocks();
    const row = (await env.DB.prepare("SELECT id, amount, status FROM invoices WHERE user_id = ?")
      .bind(dev.data.id)
      .first<{ id: string; amount: number; status: string }>())!;
    expect(row.status).toBe("UNPAID");
    await deliver(paid({ id: row.id, reference: "DEV-T0001WRITEFAIL", amount: row.amount }));
    expect(await balanceOf(dev.token)).toBe(10_000);
  });

  it("creating an invoice needs a verified email: 403 EMAIL_NOT_VERIFIED, nothing asked of the provider", async () => {
    const { register } = await import("../helpers");
    const dev = await register();
    const spy = tripayAnswers();
    await expectError(await call("/billing/topup", { method: "POST", token: dev.token, json: { amount: 20_000 } }), 403, "EMAIL_NOT_VERIFIED");
    await expectError(await call("/billing/subscribe", { method: "POST", token: dev.token, json: { plan_id: "pro" } }), 403, "EMAIL_NOT_VERIFIED");
    expect(spy).not.toHaveBeenCalled();
    expect(await invoicesOf(dev.data.id)).toBe(0);
  });

  it("subscribe: a paid plan makes an invoice; free, internal and unknown plans do not", async () => {
    const dev = await verifiedDeveloper();
    tripayAnswers();
    const res = await call("/billing/subscribe", { method: "POST", token: dev.token, json: { plan_id: "pro" } });
    expect(res.status).toBe(201);
    expect((await json(res)).data).toMatchObject({ kind: "subscription", plan_id: "pro", amount: 199_000, credits: null, status: "UNPAID" });
    await expectError(await call("/billing/subscribe", { method: "POST", token: dev.token, json: { plan_id: "free" } }), 400, "VALIDATION_ERROR");
    await expectError(await call("/billing/subscribe", { method: "POST", token: dev.token, json: { plan_id: "internal" } }), 404, "NOT_FOUND");
    await expectError(await call("/billing/subscribe", { method: "POST", token: dev.token, json: { plan_id: "gold" } }), 404, "NOT_FOUND");
    await expectError(await call("/billing/subscribe", { method: "POST", json: { plan_id: "pro" } }), 401, "MISSING_TOKEN");
  });
});

describe("webhook", () => {
  it("bad or missing signature: 401 INVALID_SIGNATURE and nothing changes", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token);
    await expectError(await deliver(paid(inv), { signature: "0".repeat(64) }), 401, "INVALID_SIGNATURE");
    await expectError(await deliver(paid(inv), { signature: null }), 401, "INVALID_SIGNATURE");
    const other = JSON.stringify(paid(inv));
    await expectError(await deliver(paid(inv), { signature: await callbackSignature("someone-elses-key", other) }), 401, "INVALID_SIGNATURE");
    expect(await balanceOf(dev.token)).toBe(0);
  });

  it("wrong amount (400), unknown merchant_ref (404), malformed JSON (400), other event (400): nothing changes", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token);
    await expectError(await deliver(paid(inv, "PAID", 10_000)), 409, "PAYMENT_AMOUNT_MISMATCH");
    await expectError(await deliver({ ...paid(inv), merchant_ref: "inv_unknown" }), 404, "NOT_FOUND");
    await expectError(await deliver("{not json"), 400, "INVALID_JSON");
    await expectError(await deliver({ hello: "world" }), 400, "VALIDATION_ERROR");
    await expectError(await deliver(paid(inv), { event: "something_else" }), 400, "VALIDATION_ERROR");
    expect(await balanceOf(dev.token)).toBe(0);
  });

  it("PAID credits once; PAID again and EXPIRED after PAID change nothing", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token, 20_000);
    const res = await deliver(paid(inv));
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ success: true });
    expect(await balanceOf(dev.token)).toBe(10_000);
    expect((await json(await deliver(paid(inv)))).success).toBe(true);
    expect((await json(await deliver(paid(inv, "EXPIRED")))).success).toBe(true);
    expect(await balanceOf(dev.token)).toBe(10_000);
    const row = await env.DB.prepare("SELECT status FROM invoices WHERE id = ?").bind(inv.id).first<{ status: string }>();
    expect(row!.status).toBe("PAID");
    const ledger = (await json(await call("/billing/credits", { token: dev.token }))).data.ledger;
    expect(ledger).toEqual([{ id: expect.any(Number), amount: 10_000, reason: `top-up ${inv.id}`, created_at: expect.any(String) }]);
  });

  it("20 concurrent identical PAID deliveries credit exactly once", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token, 50_000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(paid(inv))));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(await balanceOf(dev.token)).toBe(25_000);
  });

  it("another transaction Tripay made for the invoice (a create request it got twice): its EXPIRED changes nothing (200); its PAID settles the invoice (money received), and a second payment is refused 404 and logged", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token);
    const twin = { ...inv, reference: "DEV-T0001TWIN" };
    expect(await json(await deliver(paid(twin, "EXPIRED")))).toEqual({ success: true });
    expect((await env.DB.prepare("SELECT status FROM invoices WHERE id = ?").bind(inv.id).first<{ status: string }>())!.status).toBe("UNPAID");
    // The payer paid the twin, not the QR we showed: the invoice is paid, with the twin's reference.
    expect(await json(await deliver(paid(twin)))).toEqual({ success: true });
    expect(await env.DB.prepare("SELECT status, reference FROM invoices WHERE id = ?").bind(inv.id).first()).toEqual({
      status: "PAID",
      reference: "DEV-T0001TWIN",
    });
    expect(await balanceOf(dev.token)).toBe(10_000);
    // Paid a second time (the shown QR too): not credited twice; refused and logged for a person to refund.
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    await expectError(await deliver(paid(inv)), 404, "NOT_FOUND");
    expect(log.mock.calls.flat().join(" ")).toContain("payment_reference_mismatch");
    expect(await balanceOf(dev.token)).toBe(10_000);
  });

  it("the kept transaction expired at the provider, then its twin was paid: the invoice is settled with the twin's reference", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token);
    await deliver(paid(inv, "EXPIRED"));
    expect(await env.DB.prepare("SELECT status, closed_by FROM invoices WHERE id = ?").bind(inv.id).first()).toEqual({
      status: "EXPIRED",
      closed_by: "provider",
    });
    expect(await json(await deliver(paid({ ...inv, reference: "DEV-T0001AFTER" })))).toEqual({ success: true });
    expect(await env.DB.prepare("SELECT status, reference FROM invoices WHERE id = ?").bind(inv.id).first()).toEqual({
      status: "PAID",
      reference: "DEV-T0001AFTER",
    });
    expect(await balanceOf(dev.token)).toBe(10_000);
  });

  it("an invoice whose create call never answered: Tripay's EXPIRED of one transaction is provisional, and the paid one settles it and becomes its reference", async () => {
    const dev = await verifiedDeveloper();
    tripayAnswers({ fail: "timeout" });
    await expectError(await call("/billing/topup", { method: "POST", token: dev.token, json: { amount: 20_000 } }), 504, "UPSTREAM_TIMEOUT");
    vi.restoreAllMocks();
    const row = (await env.DB.prepare("SELECT id, amount FROM invoices WHERE user_id = ?").bind(dev.data.id).first<{ id: string; amount: number }>())!;
    expect(await json(await deliver(paid({ id: row.id, reference: "DEV-T0001ONE", amount: row.amount }, "EXPIRED")))).toEqual({ success: true });
    expect(await json(await deliver(paid({ id: row.id, reference: "DEV-T0001TWO", amount: row.amount })))).toEqual({ success: true });
    const after = await env.DB.prepare("SELECT status, reference FROM invoices WHERE id = ?").bind(row.id).first();
    expect(after).toEqual({ status: "PAID", reference: "DEV-T0001TWO" });
    expect(await balanceOf(dev.token)).toBe(10_000);
    // The other one's late EXPIRED changes nothing now.
    expect(await json(await deliver(paid({ id: row.id, reference: "DEV-T0001ONE", amount: row.amount }, "EXPIRED")))).toEqual({ success: true });
    expect((await env.DB.prepare("SELECT status FROM invoices WHERE id = ?").bind(row.id).first<{ status: string }>())!.status).toBe("PAID");
  });

  it("FAILED then PAID: the invoice stays FAILED and credits nothing", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token);
    await deliver(paid(inv, "FAILED"));
    await deliver(paid(inv));
    expect(await balanceOf(dev.token)).toBe(0);
  });

  it("a paid subscription activates the plan for a month", async () => {
    const dev = await verifiedDeveloper();
    await expectError(await call("/billing/status", { token: dev.token }), 404, "NO_SUBSCRIPTION");
    tripayAnswers();
    const inv = (await json(await call("/billing/subscribe", { method: "POST", token: dev.token, json: { plan_id: "starter" } }))).data;
    vi.restoreAllMocks();
    await deliver(paid(inv));
    await deliver(paid(inv));
    const status = (await json(await call("/billing/status", { token: dev.token }))).data;
    expect(status.subscription).toMatchObject({ plan_id: "starter", plan_name: "Starter" });
    const days = (Date.parse(status.subscription.period_end) - Date.parse(status.subscription.period_start)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(31);
    expect(status.credits).toBe(0);
    expect((await json(await call("/auth/me", { token: dev.token }))).data.plan).toBe("starter");
    const subs = await env.DB.prepare("SELECT count(*) AS n FROM subscriptions WHERE user_id = ?").bind(dev.data.id).first<{ n: number }>();
    expect(subs!.n).toBe(1);
  });
});

describe("expiry job", () => {
  const runJob = async () => {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
  };
  const statusOf = async (id: string) =>
    (await env.DB.prepare("SELECT status, closed_by FROM invoices WHERE id = ?").bind(id).first<{ status: string; closed_by: string | null }>())!;
  const invoiceExpiring = async (token: string, minutesAgo: number) => {
    tripayAnswers({ expiredTime: Math.floor(Date.now() / 1000) - minutesAgo * 60 });
    const inv = (await json(await call("/billing/topup", { method: "POST", token, json: { amount: 20_000 } }))).data;
    vi.restoreAllMocks();
    return inv;
  };

  it("expires unpaid invoices only once the provider's expiry is 15 minutes past; others stay unpaid", async () => {
    const dev = await verifiedDeveloper();
    const old = await invoiceExpiring(dev.token, 20);
    const recent = await invoiceExpiring(dev.token, 5);
    const fresh = await topupInvoice(dev.token);
    await runJob();
    expect(await statusOf(old.id)).toEqual({ status: "EXPIRED", closed_by: "system" });
    expect(await statusOf(recent.id)).toEqual({ status: "UNPAID", closed_by: null });
    expect(await statusOf(fresh.id)).toEqual({ status: "UNPAID", closed_by: null });
  });

  it("a signed PAID after our own expiry settles the invoice once, and the ledger says it was paid after expiry", async () => {
    const dev = await verifiedDeveloper();
    const inv = await invoiceExpiring(dev.token, 20);
    await runJob();
    expect((await statusOf(inv.id)).status).toBe("EXPIRED");
    expect(await json(await deliver(paid(inv)))).toEqual({ success: true });
    expect(await json(await deliver(paid(inv)))).toEqual({ success: true });
    expect(await statusOf(inv.id)).toEqual({ status: "PAID", closed_by: "provider" });
    const { data } = await json(await call("/billing/credits", { token: dev.token }));
    expect(data.balance).toBe(10_000);
    expect(data.ledger).toEqual([expect.objectContaining({ amount: 10_000, reason: `top-up ${inv.id} (paid after expiry)` })]);
  });

  it("an expiry the provider reports is final: a later PAID credits nothing", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token);
    await deliver(paid(inv, "EXPIRED"));
    await deliver(paid(inv));
    expect(await statusOf(inv.id)).toEqual({ status: "EXPIRED", closed_by: "provider" });
    expect(await balanceOf(dev.token)).toBe(0);
  });
});

describe("admin grants", () => {
  it("admin grants a subscription and takes credits (never below zero)", async () => {
    const admin = await verifiedDeveloper();
    await env.DB.prepare("UPDATE users SET is_admin = 1 WHERE id = ?").bind(admin.data.id).run();
    const dev = await verifiedDeveloper();
    const sub = await call(`/admin/users/${dev.data.id}/subscription`, { method: "POST", token: admin.token, json: { plan_id: "pro", months: 2 } });
    expect(sub.status).toBe(201);
    expect((await json(await call("/billing/status", { token: dev.token }))).data.subscription.plan_id).toBe("pro");
    await call(`/admin/users/${dev.data.id}/credits`, { method: "POST", token: admin.token, json: { amount: 5, reason: "trial" } });
    await expectError(
      await call(`/admin/users/${dev.data.id}/credits`, { method: "POST", token: admin.token, json: { amount: -6, reason: "oops" } }),
      400,
      "VALIDATION_ERROR",
    );
    expect((await call(`/admin/users/${dev.data.id}/credits`, { method: "POST", token: admin.token, json: { amount: -5, reason: "correction" } })).status).toBe(
      201,
    );
    expect(await balanceOf(dev.token)).toBe(0);
    await expectError(
      await call("/admin/users/user_nope/credits", { method: "POST", token: admin.token, json: { amount: 5, reason: "x y z" } }),
      404,
      "NOT_FOUND",
    );
  });
});

describe("issue 22: fees, refunds, invoice throttles, queued subscriptions", () => {
  const ledgerOf = async (token: string) => (await json(await call("/billing/credits?per_page=100", { token }))).data;

  it("fee charged to the customer: total_amount = amount + fee; settled on what the merchant is owed", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token, 20_000);
    const body = { ...paid(inv), total_amount: 20_750, fee_merchant: 0, fee_customer: 750, total_fee: 750, amount_received: 20_000 };
    expect(await json(await deliver(body))).toEqual({ success: true });
    expect(await balanceOf(dev.token)).toBe(10_000);
  });

  it("fee charged to the merchant: total_amount = amount, amount_received = amount - fee", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token, 20_000);
    const body = { ...paid(inv), total_amount: 20_000, fee_merchant: 750, fee_customer: 0, total_fee: 750, amount_received: 19_250 };
    expect(await json(await deliver(body))).toEqual({ success: true });
    expect(await balanceOf(dev.token)).toBe(10_000);
    // A payment short of the invoice is still refused, whoever pays the fee.
    const other = await topupInvoice(dev.token, 20_000);
    const short = { ...paid(other), total_amount: 19_750, fee_merchant: 0, fee_customer: 750, amount_received: 19_000 };
    await expectError(await deliver(short), 409, "PAYMENT_AMOUNT_MISMATCH");
  });

  it("REFUND of a top-up takes its credits back, never below zero, and records what could not be taken", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token, 20_000);
    await deliver(paid(inv));
    await env.DB.prepare("INSERT INTO credit_ledger (user_id, amount, reason, ref, created_at) VALUES (?, -4000, 'spent', ?, ?)")
      .bind(dev.data.id, `spent:${inv.id}`, Date.now())
      .run();
    expect(await json(await deliver(paid(inv, "REFUND")))).toEqual({ success: true });
    expect(await json(await deliver(paid(inv, "REFUND")))).toEqual({ success: true });
    const { balance, ledger } = await ledgerOf(dev.token);
    expect(balance).toBe(0);
    const refund = ledger.find((e: { reason: string }) => e.reason.includes("refund"));
    expect(refund.amount).toBe(-6000);
    expect(refund.reason).toContain("4,000");
    expect(ledger.filter((e: { reason: string }) => e.reason.includes("refund"))).toHaveLength(1);
    const row = await env.DB.prepare("SELECT status FROM invoices WHERE id = ?").bind(inv.id).first<{ status: string }>();
    expect(row!.status).toBe("REFUNDED");
  });

  it("REFUND of a subscription ends it: back to the free plan, with a ledger entry", async () => {
    const dev = await verifiedDeveloper();
    tripayAnswers();
    const inv = (await json(await call("/billing/subscribe", { method: "POST", token: dev.token, json: { plan_id: "starter" } }))).data;
    vi.restoreAllMocks();
    await deliver(paid(inv));
    expect((await json(await call("/auth/me", { token: dev.token }))).data.plan).toBe("starter");
    await deliver(paid(inv, "REFUND"));
    expect((await json(await call("/auth/me", { token: dev.token }))).data.plan).toBe("free");
    await expectError(await call("/billing/status", { token: dev.token }), 404, "NO_SUBSCRIPTION");
    expect((await ledgerOf(dev.token)).ledger.some((e: { reason: string }) => e.reason.includes(inv.id) && e.reason.includes("refund"))).toBe(true);
  });

  it("at most 3 invoices per user per minute (429 with Retry-After) and 5 open unpaid ones (409 TOO_MANY_OPEN_INVOICES)", async () => {
    const dev = await verifiedDeveloper();
    tripayAnswers();
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await call("/billing/topup", { method: "POST", token: dev.token, json: { amount: 20_000 } }));
    expect(made.slice(0, 3).map((r) => r.status)).toEqual([201, 201, 201]);
    expect(Number(made[3].headers.get("retry-after"))).toBeGreaterThan(0);
    await expectError(made[3], 429, "RATE_LIMITED");
    await env.DB.prepare("UPDATE invoices SET created_at = created_at - 120000 WHERE user_id = ?").bind(dev.data.id).run();
    for (let i = 0; i < 2; i++) expect((await call("/billing/topup", { method: "POST", token: dev.token, json: { amount: 20_000 } })).status).toBe(201);
    await env.DB.prepare("UPDATE invoices SET created_at = created_at - 120000 WHERE user_id = ?").bind(dev.data.id).run();
    await expectError(await call("/billing/subscribe", { method: "POST", token: dev.token, json: { plan_id: "pro" } }), 409, "TOO_MANY_OPEN_INVOICES");
    expect(await invoicesOf(dev.data.id)).toBe(5);
  });

  it("a paid subscription that cannot be queued is not acknowledged: 503, and the next delivery queues it", async () => {
    const dev = await verifiedDeveloper();
    tripayAnswers();
    const inv = (await json(await call("/billing/subscribe", { method: "POST", token: dev.token, json: { plan_id: "pro" } }))).data;
    vi.restoreAllMocks();
    // Every attempt to write this invoice's subscription is skipped (as when other subscriptions of the user keep taking its slot).
    await env.DB.prepare(
      `CREATE TRIGGER "skip_sub_${inv.id}" BEFORE INSERT ON subscriptions WHEN NEW.source = 'invoice:${inv.id}' BEGIN SELECT RAISE(IGNORE); END`,
    ).run();
    try {
      const res = await deliver(paid(inv));
      await expectError(res, 503, "SERVICE_UNAVAILABLE");
      expect(res.headers.get("retry-after")).toBeTruthy();
    } finally {
      await env.DB.prepare(`DROP TRIGGER "skip_sub_${inv.id}"`).run();
    }
    expect((await json(await deliver(paid(inv)))).success).toBe(true);
    const subs = await env.DB.prepare("SELECT plan_id FROM subscriptions WHERE source = ?").bind(`invoice:${inv.id}`).all<{ plan_id: string }>();
    expect(subs.results).toEqual([{ plan_id: "pro" }]);
    expect((await json(await call("/auth/me", { token: dev.token }))).data.plan).toBe("pro");
  });

  it("a cheaper plan bought while a dearer one runs is queued after it, not a downgrade", async () => {
    const dev = await verifiedDeveloper();
    const buy = async (plan_id: string) => {
      tripayAnswers();
      const inv = (await json(await call("/billing/subscribe", { method: "POST", token: dev.token, json: { plan_id } }))).data;
      vi.restoreAllMocks();
      await deliver(paid(inv));
    };
    await buy("pro");
    await buy("starter");
    expect((await json(await call("/auth/me", { token: dev.token }))).data.plan).toBe("pro");
    const status = (await json(await call("/billing/status", { token: dev.token }))).data;
    expect(status.subscription.plan_id).toBe("pro");
    expect(status.queued).toEqual([{ plan_id: "starter", period_start: status.subscription.period_end, period_end: expect.any(String) }]);
    const rows = (
      await env.DB.prepare("SELECT plan_id, period_start, period_end FROM subscriptions WHERE user_id = ? ORDER BY period_start")
        .bind(dev.data.id)
        .all<{ plan_id: string; period_start: number; period_end: number }>()
    ).results;
    expect(rows.map((r) => r.plan_id)).toEqual(["pro", "starter"]);
    expect(rows[1].period_start).toBe(rows[0].period_end);
    // When pro's period is over, the queued plan takes over.
    await env.DB.prepare("UPDATE subscriptions SET period_start = period_start - ?, period_end = period_end - ? WHERE user_id = ?")
      .bind(rows[0].period_end - rows[0].period_start + 1000, rows[0].period_end - rows[0].period_start + 1000, dev.data.id)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await json(await call("/auth/me", { token: dev.token }))).data.plan).toBe("starter");
  });
});
