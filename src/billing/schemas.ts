import { z } from "zod";
import { pageMeta } from "../lib/paging";
import { displayText } from "../lib/text";

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
  request_log_days: z.int().describe("How many days GET /user/requests keeps your calls on this plan"),
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

// ---------------------------------------------------------------- billing details and receipts

/** Blank means none: a form's empty field and an explicit null both clear it. */
const blankIsNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);

/** An NPWP as people write it (`01.234.567.8-901.000`, or 16 digits since 2024): dots, dashes and spaces dropped; 15 or 16 digits. */
export const npwpInput = z.preprocess(
  (v) => (typeof v === "string" ? v.replace(/[.\-\s]/g, "") : v),
  z.string().regex(/^(\d{15}|\d{16})$/, "an NPWP: 15 digits (99.999.999.9-999.999) or 16 (NIK or NPWP16)"),
);

export const billingDetailsInput = z.strictObject({
  company_name: z
    .preprocess(blankIsNull, displayText(1, 200).nullable())
    .optional()
    .describe("The company the receipts are made out to; null or empty: your account's name"),
  npwp: z.preprocess(blankIsNull, npwpInput.nullable()).optional().describe("The company's tax number (NPWP), 15 or 16 digits; printed on receipts"),
  address: z.preprocess(blankIsNull, displayText(1, 300).nullable()).optional().describe("The address printed on receipts (one line)"),
});
export type BillingDetailsInput = z.infer<typeof billingDetailsInput>;

export const billingDetailsSchema = z.object({
  company_name: z.string().nullable(),
  npwp: z.string().nullable().describe("Digits only"),
  address: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export const billingDetailsResponse = z.object({ data: billingDetailsSchema });

export const receiptSchema = z.object({
  id: z.string().describe("The paid invoice's id (`inv_...`): a receipt is its invoice's"),
  number: z.string().describe("KW-<year>-<number>, numbered in the order receipts are issued"),
  issued_at: z.string().describe("ISO 8601: when the payment settled"),
  status: z.enum(["paid", "refunded"]).describe("refunded: the payment was refunded later (the receipt stays, marked so)"),
  kind: z.enum(["topup", "subscription"]),
  seller: z.object({ name: z.string(), address: z.string().nullable(), npwp: z.string().nullable() }),
  buyer: z
    .object({ name: z.string(), email: z.string(), company_name: z.string().nullable(), npwp: z.string().nullable(), address: z.string().nullable() })
    .describe("As the account's billing details said when the payment settled"),
  payment: z.object({ provider: z.literal("Tripay"), method: z.literal("QRIS"), reference: z.string().nullable().describe("Tripay's reference") }),
  items: z.array(
    z.object({
      description: z.string().describe("In Indonesian, as the receipt says it"),
      description_en: z.string(),
      quantity: z.int(),
      unit_price: z.int().describe("IDR"),
      amount: z.int().describe("IDR"),
    }),
  ),
  total: z.int().describe("IDR"),
  currency: z.literal("IDR"),
  total_in_words: z.string().describe("The total in Indonesian words (terbilang), as a kwitansi states it"),
  html_url: z.string().describe("The receipt as a page to print (A4) or save as PDF: GET with Accept: text/html, or the portal's link"),
});
export type ReceiptView = z.infer<typeof receiptSchema>;
export const receiptResponse = z.object({ data: receiptSchema });
export const receiptListResponse = z.object({ data: z.array(receiptSchema).describe("Newest first") });
