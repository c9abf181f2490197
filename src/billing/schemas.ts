import { z } from "zod";
import { pageMeta } from "../lib/paging";

/** Top-up: whole rupiah within Tripay's QRIS range, in steps of Rp1,000; each credit is one call. */
export const TOPUP = { min: 10_000, max: 5_000_000, step: 1_000, idrPerCredit: 2 } as const;

/** A top-up's amount (REST body and portal form). */
export const topupAmountInput = z
  .number({ error: "amount must be a whole number of rupiah" })
  .int("amount must be a whole number of rupiah")
  .min(TOPUP.min, `at least Rp${TOPUP.min.toLocaleString("en")}`)
  .max(TOPUP.max, `at most Rp${TOPUP.max.toLocaleString("en")}`)
  .multipleOf(TOPUP.step, `a multiple of Rp${TOPUP.step.toLocaleString("en")}`)
  .describe(`IDR, ${TOPUP.min} to ${TOPUP.max} in steps of ${TOPUP.step}; buys amount / ${TOPUP.idrPerCredit} credits`);

/** A plan to buy (REST body and portal form). */
export const planIdInput = z.string().min(1).max(40).describe("A paid plan's id from GET /billing/plans");

export const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  price_idr: z.int().describe("Per month"),
  monthly_quota: z.int().describe("Calls included per UTC month"),
  rate_limit_per_minute: z.int().nullable(),
  features: z.array(z.string()),
});

export const invoiceSchema = z.object({
  id: z.string().describe("`inv_...`; also Tripay's merchant_ref"),
  kind: z.enum(["topup", "subscription"]),
  amount: z.int().describe("IDR"),
  credits: z.int().nullable(),
  plan_id: z.string().nullable(),
  status: z
    .enum(["UNPAID", "PAID", "EXPIRED", "FAILED", "REFUNDED"])
    .describe("REFUNDED: paid, then refunded through Tripay (its credits taken back or its plan ended)"),
  reference: z.string().nullable().describe("Tripay's reference; null until Tripay answered"),
  qr_string: z.string().nullable().describe("The QRIS payload"),
  qr_image: z.string().nullable().describe("SVG data URL rendered from qr_string"),
  qr_url: z.string().nullable(),
  expires_at: z.string(),
  paid_at: z.string().nullable(),
  created_at: z.string(),
});

export const plansResponse = z.object({ data: z.array(planSchema) });
export const invoiceResponse = z.object({ data: invoiceSchema });
export const invoiceListResponse = z.object({ data: z.array(invoiceSchema), meta: pageMeta });
export const webhookResponse = z.object({ success: z.literal(true) });
export const statusResponse = z.object({
  data: z.object({
    subscription: z.object({ plan_id: z.string(), plan_name: z.string(), period_start: z.string(), period_end: z.string() }),
    queued: z
      .array(z.object({ plan_id: z.string(), period_start: z.string(), period_end: z.string() }))
      .describe("Paid subscriptions waiting for the running one to end, in order"),
    credits: z.int(),
  }),
});
export const creditsResponse = z.object({
  data: z.object({ balance: z.int(), ledger: z.array(z.object({ id: z.int(), amount: z.int(), reason: z.string(), created_at: z.string() })) }),
  meta: pageMeta,
});

/** The fields of Tripay's payment_status callback that are read (others are accepted and ignored). */
export const tripayCallbackSchema = z.object({
  reference: z.string().min(1).max(100).describe("Tripay's reference"),
  merchant_ref: z.string().min(1).max(100).describe("Our invoice id"),
  status: z.enum(["PAID", "EXPIRED", "FAILED", "REFUND", "UNPAID"]),
  total_amount: z.number().int().describe("What the payer paid: the invoice amount, plus the fee when the customer pays it"),
  fee_merchant: z.number().int().optional().describe("The fee the merchant pays (0 when the customer pays it)"),
  fee_customer: z.number().int().optional().describe("The fee the customer pays (0 when the merchant pays it)"),
  amount_received: z.number().int().optional().describe("What the merchant receives: amount_received + fee_merchant must equal the invoice amount"),
});
