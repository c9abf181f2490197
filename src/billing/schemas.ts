import { z } from "zod";
import { pageMeta } from "../lib/paging";

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
  status: z.enum(["UNPAID", "PAID", "EXPIRED", "FAILED"]),
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
  total_amount: z.number().int().describe("Must equal the invoice amount"),
});
