/**
 * Tripay adapter (closed payment, QRIS): transaction-create and callback verification.
 * Base URL and channel are vars (sandbox by default); API key, private key and merchant code are secrets.
 */
import { timingSafeEqual } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { callbackSignature, transactionSignature } from "./signature";
import { SIMULATOR_PRIVATE_KEY, SIMULATOR_QR, usesPaymentSimulator } from "./simulator";

/** `simulated`: the local payment simulator stands in for the provider (development only, ./simulator.ts). */
export type TripayConfig = { baseUrl: string; method: string; apiKey: string; privateKey: string; merchantCode: string; simulated?: true };

/**
 * The configuration; on a development Worker without the provider's credentials, the local payment
 * simulator's; otherwise PAYMENT_NOT_CONFIGURED (503) when any credential is missing: a set-up
 * matter of the deployment, not an outage, and the message says so.
 */
export function tripayConfig(env: Env): TripayConfig {
  if (usesPaymentSimulator(env)) {
    return { baseUrl: "", method: "QRIS", apiKey: "", privateKey: SIMULATOR_PRIVATE_KEY, merchantCode: "SIMULATOR", simulated: true };
  }
  if (!env.TRIPAY_API_KEY || !env.TRIPAY_PRIVATE_KEY || !env.TRIPAY_MERCHANT_CODE) {
    throw new ApiError(
      "PAYMENT_NOT_CONFIGURED",
      "Payments are not set up on this deployment: no payment provider is configured. Nothing was charged; contact the operator.",
    );
  }
  return {
    baseUrl: env.TRIPAY_BASE_URL.replace(/\/$/, ""),
    method: env.TRIPAY_METHOD,
    apiKey: env.TRIPAY_API_KEY,
    privateKey: env.TRIPAY_PRIVATE_KEY,
    merchantCode: env.TRIPAY_MERCHANT_CODE,
  };
}

/** The provider answered and said no: it created no transaction (unlike a timeout or a garbled answer, after which it may have). */
export class TransactionRefused extends ApiError {}

export type CreatedTransaction = { reference: string; qrString: string; qrUrl: string | null; expiresAt: number; status: string };

const TIMEOUT_MS = 10_000;

export async function createTransaction(
  cfg: TripayConfig,
  tx: { merchantRef: string; amount: number; itemName: string; customerName: string; customerEmail: string; expiresAt: number },
): Promise<CreatedTransaction> {
  // The simulator's transaction: made here, paid from the invoice page (./simulator.ts).
  if (cfg.simulated) return { reference: `SIM-${tx.merchantRef}`, qrString: SIMULATOR_QR, qrUrl: null, expiresAt: tx.expiresAt, status: "UNPAID" };
  const body = {
    method: cfg.method,
    merchant_ref: tx.merchantRef,
    amount: tx.amount,
    customer_name: tx.customerName,
    customer_email: tx.customerEmail,
    order_items: [{ name: tx.itemName, price: tx.amount, quantity: 1 }],
    expired_time: Math.floor(tx.expiresAt / 1000),
    signature: await transactionSignature(cfg.privateKey, cfg.merchantCode, tx.merchantRef, tx.amount),
  };
  let res: Response;
  try {
    res = await fetch(`${cfg.baseUrl}/transaction/create`, {
      method: "POST",
      headers: { authorization: `Bearer ${cfg.apiKey}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (e) {
    if ((e as Error)?.name === "TimeoutError")
      throw new ApiError("UPSTREAM_TIMEOUT", "The payment provider did not answer in time. Nothing was charged; try again.");
    throw new ApiError("UPSTREAM_ERROR", "The payment provider could not be reached. Nothing was charged; try again.");
  }
  const answer = (await res.json().catch(() => null)) as { success?: boolean; message?: string; data?: Record<string, unknown> } | null;
  const d = answer?.data;
  if (answer && answer.success === false) {
    throw new TransactionRefused(
      "UPSTREAM_ERROR",
      `The payment provider refused the transaction${answer.message ? `: ${String(answer.message).slice(0, 200)}` : ""}. Nothing was charged; try again.`,
    );
  }
  const wellFormed = (v: unknown, max: number) => typeof v === "string" && v.length > 0 && v.length <= max;
  if (!res.ok || !answer?.success || !d || !wellFormed(d.reference, 100) || !wellFormed(d.qr_string, 2000)) {
    throw new ApiError("UPSTREAM_ERROR", "The payment provider gave an answer we cannot use. Nothing was charged; try again.");
  }
  return {
    reference: d.reference as string,
    qrString: d.qr_string as string,
    qrUrl: typeof d.qr_url === "string" ? d.qr_url : null,
    expiresAt: typeof d.expired_time === "number" ? d.expired_time * 1000 : tx.expiresAt,
    status: String(d.status ?? "UNPAID"),
  };
}

/** Constant-time check of X-Callback-Signature against the raw body. */
export async function verifyCallback(privateKey: string, rawBody: string, signature: string | undefined): Promise<boolean> {
  if (!signature) return false;
  return timingSafeEqual(signature.trim().toLowerCase(), await callbackSignature(privateKey, rawBody));
}
