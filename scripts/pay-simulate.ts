/**
 * Plays Tripay's payment callback for an invoice against a running local Worker, signed with the
 * same code the Worker verifies with (src/billing/signature.ts, src/billing/simulator.ts).
 *
 *   npm run pay:simulate -- <reference> [--status PAID|EXPIRED|FAILED] [--url http://localhost:8787]
 *
 * Reads the invoice from the local D1 and TRIPAY_PRIVATE_KEY from .dev.vars (or the environment);
 * without it, the local payment simulator's key (`npm run dev` without Tripay's sandbox credentials:
 * its invoices can also be paid from the portal's invoice page).
 */
import { SIMULATOR_PRIVATE_KEY, type SimulatedInvoice, simulatedCallback } from "../src/billing/simulator.ts";
import { d1, isMain, readDevVars, sqlString } from "./lib.ts";

function privateKey(): string {
  return process.env.TRIPAY_PRIVATE_KEY || readDevVars().TRIPAY_PRIVATE_KEY || SIMULATOR_PRIVATE_KEY;
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
