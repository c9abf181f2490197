/**
 * Plays Tripay's payment callback for an invoice against a running local Worker, signed with the
 * same code the Worker verifies with (src/billing/signature.ts).
 *
 *   npm run pay:simulate -- <reference> [--status PAID|EXPIRED|FAILED] [--url http://localhost:8787]
 *
 * Reads the invoice from the local D1 and TRIPAY_PRIVATE_KEY from .dev.vars (or the environment).
 */
import { callbackSignature } from "../src/billing/signature.ts";
import { d1, isMain, readDevVars, sqlString } from "./lib.ts";

export type SimulatedInvoice = { id: string; reference: string; amount: number };

/** The body Tripay sends for a status change, and its X-Callback-Signature. */
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
    note: "simulated by npm run pay:simulate",
  });
  return { body, signature: await callbackSignature(privateKey, body) };
}

function privateKey(): string {
  const key = process.env.TRIPAY_PRIVATE_KEY || readDevVars().TRIPAY_PRIVATE_KEY;
  if (!key) throw new Error("TRIPAY_PRIVATE_KEY is not set (in .dev.vars or the environment).");
  return key;
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
  const reference = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
  const status = opt("status", "PAID").toUpperCase();
  const url = opt("url", "http://localhost:8787");
  if (!reference || !["PAID", "EXPIRED", "FAILED"].includes(status)) {
    console.error("usage: npm run pay:simulate -- <reference> [--status PAID|EXPIRED|FAILED] [--url http://localhost:8787]");
    process.exit(2);
  }
  const inv = d1(`SELECT id, reference, amount FROM invoices WHERE reference = ${sqlString(reference)}`)[0] as SimulatedInvoice | undefined;
  if (!inv) throw new Error(`No invoice with reference ${reference} in the local D1.`);
  const { body, signature } = await simulatedCallback(inv, status, privateKey());
  const res = await fetch(`${url}/billing/tripay/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-callback-event": "payment_status", "x-callback-signature": signature },
    body,
  });
  console.log(`${res.status} ${await res.text()}`);
  if (!res.ok) process.exit(1);
}

if (isMain(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
