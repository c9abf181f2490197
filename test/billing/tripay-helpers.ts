/** The Tripay stand-ins of the billing tests: transaction-create intercepted, signed callbacks delivered. */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, expect, vi } from "vitest";
import { callbackSignature } from "../../src/billing/signature";
import { call, json } from "../helpers";

export const TRIPAY = { TRIPAY_API_KEY: "DEV-test-api-key", TRIPAY_PRIVATE_KEY: "test-private-key-123", TRIPAY_MERCHANT_CODE: "T0001" };

let refSeq = 0;
/** Tripay's transaction-create, intercepted: answers like the sandbox and remembers the request. */
export function tripayAnswers(opts: { expiredTime?: number; fail?: "timeout" | "error" | "refused"; reference?: string } = {}) {
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (_input, init) => {
    if (opts.fail === "timeout") throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
    if (opts.fail === "error") throw new TypeError("fetch failed");
    if (opts.fail === "refused") return Response.json({ success: false, message: "Invalid signature" }, { status: 400 });
    const body = JSON.parse(String(init?.body));
    return Response.json({
      success: true,
      data: {
        reference: opts.reference ?? `DEV-T0001${++refSeq}ABCDE`,
        merchant_ref: body.merchant_ref,
        amount: body.amount,
        qr_string: "SANDBOX MODE",
        qr_url: "https://tripay.co.id/qr/DEV",
        expired_time: opts.expiredTime ?? body.expired_time,
        status: "UNPAID",
      },
    });
  });
}

export async function deliver(body: object | string, opts: { signature?: string | null; event?: string } = {}) {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const headers: Record<string, string> = { "content-type": "application/json", "x-callback-event": opts.event ?? "payment_status" };
  const sig = opts.signature === undefined ? await callbackSignature(TRIPAY.TRIPAY_PRIVATE_KEY, raw) : opts.signature;
  if (sig !== null) headers["x-callback-signature"] = sig;
  return call("/billing/tripay/webhook", { method: "POST", body: raw, headers });
}

export const paid = (inv: { id: string; reference: string; amount: number }, status = "PAID", amount = inv.amount) => ({
  reference: inv.reference,
  merchant_ref: inv.id,
  payment_method_code: "QRIS",
  total_amount: amount,
  fee_merchant: 750,
  amount_received: amount - 750,
  is_closed_payment: 1,
  status,
  paid_at: Math.floor(Date.now() / 1000),
});

export async function topupInvoice(token: string, amount = 20_000) {
  tripayAnswers();
  const res = await call("/billing/topup", { method: "POST", token, json: { amount } });
  vi.restoreAllMocks();
  expect(res.status).toBe(201);
  return (await json(res)).data;
}

/** Tripay's credentials in the Worker's env for each test, removed after it (with the fetch spies). */
export function withTripay() {
  beforeEach(() => Object.assign(env, TRIPAY));
  afterEach(() => {
    vi.restoreAllMocks();
    for (const k of Object.keys(TRIPAY)) delete (env as any)[k];
  });
}
