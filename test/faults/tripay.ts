/**
 * Tripay as the fault scenarios play it (issue 27): the transaction-create API, which records every
 * transaction it makes (so a test knows what a payer could pay, also when the answer never reached
 * the Worker), and the payment callback, signed as Tripay signs it. No request leaves the machine.
 */
import { callbackSignature } from "../../src/billing/signature";
import { callWith, type Upstream } from "./inject";

export const TRIPAY = { TRIPAY_API_KEY: "DEV-test-api-key", TRIPAY_PRIVATE_KEY: "test-private-key-123", TRIPAY_MERCHANT_CODE: "T0001" };

export type Transaction = { reference: string; merchantRef: string; amount: number; expiredTime: number };

let sequence = 0;

export class FakeTripay {
  /** Every transaction made, in order (a duplicated request makes two). */
  readonly transactions: Transaction[] = [];

  /** POST /transaction/create, answered like the sandbox; anything else is a 404. */
  readonly upstream: Upstream = async (request) => {
    if (!request.url.endsWith("/transaction/create")) return Response.json({ success: false, message: "Not found" }, { status: 404 });
    const body = (await request.json()) as { merchant_ref: string; amount: number; expired_time: number };
    const tx = { reference: `DEV-T0001${++sequence}FAULT`, merchantRef: body.merchant_ref, amount: body.amount, expiredTime: body.expired_time };
    this.transactions.push(tx);
    return Response.json({
      success: true,
      data: {
        reference: tx.reference,
        merchant_ref: tx.merchantRef,
        amount: tx.amount,
        qr_string: "SANDBOX MODE",
        qr_url: "https://tripay.co.id/qr/DEV",
        expired_time: tx.expiredTime,
        status: "UNPAID",
      },
    });
  };

  ofInvoice(invoiceId: string): Transaction[] {
    return this.transactions.filter((t) => t.merchantRef === invoiceId);
  }
}

export type CallbackStatus = "PAID" | "EXPIRED" | "FAILED" | "REFUND";

/** A payment_status callback for a transaction (fee on the merchant), as Tripay sends it. */
export function callbackBody(tx: { reference: string; merchantRef: string; amount: number }, status: CallbackStatus) {
  return JSON.stringify({
    reference: tx.reference,
    merchant_ref: tx.merchantRef,
    payment_method_code: "QRIS",
    total_amount: tx.amount,
    fee_merchant: 750,
    amount_received: tx.amount - 750,
    is_closed_payment: 1,
    status,
    paid_at: status === "PAID" ? Math.floor(Date.now() / 1000) : null,
  });
}

/** One delivery of a callback to the webhook, with `env` (faulty or not). */
export async function deliverWith(env: Env, raw: string): Promise<Response> {
  const headers = {
    "content-type": "application/json",
    "x-callback-event": "payment_status",
    "x-callback-signature": await callbackSignature(TRIPAY.TRIPAY_PRIVATE_KEY, raw),
  };
  return callWith(env, "/billing/tripay/webhook", { method: "POST", body: raw, headers });
}
