/**
 * The local payment simulator: on a development Worker without Tripay's credentials (`npm run dev`
 * passes PAYMENT_SIMULATOR=on), invoices are created without the provider and paid from the
 * portal's invoice page (or `npm run pay:simulate`) by a callback signed like Tripay's, with a
 * development key, through the same verification and settlement as a real payment. Never on a
 * production Worker: ENVIRONMENT must say development (wrangler.toml says production) and the
 * variable is never in wrangler.toml. Imported by scripts/pay-simulate.ts (Node) too, hence the `.ts` import.
 */
import { callbackSignature } from "./signature.ts";

/** The simulator's signing key. Not a secret: it is accepted only on a development Worker without Tripay's credentials. */
export const SIMULATOR_PRIVATE_KEY = "local-payment-simulator";
/** The simulator's stand-in for the QRIS payload (what the invoice page's code holds). */
export const SIMULATOR_QR = "SIMULATED PAYMENT (development): not a QRIS code";

/** True on a development Worker that has no payment provider and asked for the simulator. */
export function usesPaymentSimulator(env: Env): boolean {
  const provider = Boolean(env.TRIPAY_API_KEY && env.TRIPAY_PRIVATE_KEY && env.TRIPAY_MERCHANT_CODE);
  return !provider && env.ENVIRONMENT === "development" && env.PAYMENT_SIMULATOR === "on";
}

export type SimulatedInvoice = { id: string; reference: string; amount: number };

/** The body Tripay sends for a status change of an invoice's transaction, and its X-Callback-Signature. */
export async function simulatedCallback(inv: SimulatedInvoice, status: string, privateKey: string, now = Date.now()) {
  const body = JSON.stringify({
    reference: inv.reference,
    merchant_ref: inv.id,
    payment_method: "QRIS",
    payment_method_code: "QRIS",
    total_amount: inv.amount,
    fee_merchant: 0,
    fee_customer: 0,
    total_fee: 0,
    amount_received: inv.amount,
    is_closed_payment: 1,
    status,
    paid_at: status === "PAID" ? Math.floor(now / 1000) : null,
    note: "simulated (development)",
  });
  return { body, signature: await callbackSignature(privateKey, body) };
}
