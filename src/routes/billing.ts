import { Hono } from "hono";
import { z } from "zod";
import { receiptHtml } from "../billing/receipt-page";
import { billingDetailsOf, getReceipt, listReceipts, saveBillingDetailsOf } from "../billing/receipts";
import {
  billingDetailsInput,
  billingDetailsResponse,
  creditsResponse,
  invoiceListResponse,
  invoiceResponse,
  planIdInput,
  plansResponse,
  receiptListResponse,
  receiptResponse,
  statusResponse,
  topupAmountInput,
  tripayCallbackSchema,
  webhookResponse,
} from "../billing/schemas";
import { billingStatus, credits, getInvoice, handleTripayCallback, listInvoices, listPlans, subscribe, topup } from "../billing/service";
import { gate, publicRoute, requireUser } from "../gate";
import { wantsHtml } from "../http/accept";
import { pageBody } from "../http/answer";
import { parseJsonText } from "../http/body";
import type { BaseEnv } from "../http/context";
import { doc } from "../http/docs";
import { jsonBody, queryParams } from "../http/validate";
import { pageParams } from "../lib/paging";

/** Mounted at /billing. */
export const billingRoutes = new Hono<BaseEnv>();
const tags = ["Billing"];
const PAYMENT_ERRORS = ["EMAIL_NOT_VERIFIED", "PAYMENT_NOT_CONFIGURED", "UPSTREAM_ERROR", "UPSTREAM_TIMEOUT"] as const;

billingRoutes.get(
  "/plans",
  doc({
    operationId: "listPlans",
    tags,
    summary: "The plan catalog",
    caller: "none",
    ok: { description: "Public plans, cheapest first", schema: plansResponse },
  }),
  publicRoute,
  async (c) => c.json({ data: await listPlans(c.env) }),
);

billingRoutes.post(
  "/topup",
  doc({
    operationId: "createTopup",
    tags,
    summary: "Buy credits (QRIS invoice)",
    description:
      "Creates a QRIS payment invoice at Tripay; show `qr_image` to the payer. Credits arrive when Tripay reports the payment. Needs a verified email.",
    caller: "bearer",
    input: "json",
    ok: { status: 201, description: "The invoice, with its QR code", schema: invoiceResponse },
    errors: [...PAYMENT_ERRORS],
  }),
  requireUser,
  ...jsonBody(z.strictObject({ amount: topupAmountInput })),
  async (c) => c.json({ data: await topup(c.env, c.get("user"), c.req.valid("json").amount) }, 201),
);

billingRoutes.post(
  "/subscribe",
  doc({
    operationId: "subscribe",
    tags,
    summary: "Subscribe to a plan (QRIS invoice)",
    description: "Creates a QRIS invoice for one month of a paid plan; the plan is active for a month from the payment.",
    caller: "bearer",
    input: "json",
    ok: { status: 201, description: "The invoice, with its QR code", schema: invoiceResponse },
    errors: [...PAYMENT_ERRORS, "NOT_FOUND"],
  }),
  requireUser,
  ...jsonBody(z.strictObject({ plan_id: planIdInput })),
  async (c) => c.json({ data: await subscribe(c.env, c.get("user"), c.req.valid("json").plan_id) }, 201),
);

// Authenticated by its HMAC signature over the raw body, not by a token.
billingRoutes.post(
  "/tripay/webhook",
  doc({
    operationId: "tripayWebhook",
    tags,
    summary: "Tripay payment callback",
    description:
      'For Tripay only. `X-Callback-Signature` must be the hex HMAC-SHA256 of the raw body with the merchant private key, and `X-Callback-Event` must be `payment_status`. Answers `{"success": true}` once handled, also for repeated deliveries.',
    caller: "webhook",
    body: { schema: tripayCallbackSchema, description: "Tripay's payment_status payload" },
    parameters: [{ in: "header", name: "x-callback-event", required: true, schema: { type: "string", enum: ["payment_status"] } }],
    ok: { description: "Handled", schema: webhookResponse },
    errors: ["INVALID_JSON", "VALIDATION_ERROR", "NOT_FOUND", "PAYMENT_AMOUNT_MISMATCH", "PAYMENT_NOT_CONFIGURED"],
  }),
  gate({ callers: ["tripay"] }),
  async (c) => {
    const rawBody = await c.req.text();
    await handleTripayCallback(c.env, {
      rawBody,
      signature: c.req.header("x-callback-signature"),
      event: c.req.header("x-callback-event"),
      json: () => parseJsonText(rawBody, "The callback body"),
    });
    return c.json({ success: true });
  },
);

billingRoutes.get(
  "/status",
  doc({
    operationId: "getBillingStatus",
    tags,
    summary: "Your subscription and credits",
    caller: "bearer",
    ok: { description: "The active subscription and the credit balance", schema: statusResponse },
    errors: ["NO_SUBSCRIPTION"],
  }),
  requireUser,
  async (c) => c.json({ data: await billingStatus(c.env, c.get("user").id) }),
);

billingRoutes.get(
  "/credits",
  doc({
    operationId: "getCredits",
    tags,
    summary: "Your credit balance and ledger",
    description: "The ledger newest first, paged.",
    caller: "bearer",
    input: "query",
    ok: { description: "Balance and ledger", schema: creditsResponse },
  }),
  requireUser,
  queryParams(z.strictObject(pageParams)),
  async (c) => {
    const { balance, ledger } = await credits(c.env, c.get("user").id, c.req.valid("query"));
    return c.json({ data: { balance, ledger: ledger.items }, meta: ledger.meta });
  },
);

billingRoutes.get(
  "/invoices",
  doc({
    operationId: "listInvoices",
    tags,
    summary: "Your invoices",
    description: "Newest first, paged: top-ups and subscriptions in every status.",
    caller: "bearer",
    input: "query",
    ok: { description: "Your invoices", schema: invoiceListResponse },
  }),
  requireUser,
  queryParams(z.strictObject(pageParams)),
  async (c) => c.json(pageBody(await listInvoices(c.env, c.get("user").id, c.req.valid("query")))),
);

billingRoutes.get(
  "/invoices/:id",
  doc({
    operationId: "getInvoice",
    tags,
    summary: "One of your invoices",
    description: "Poll it to see a payment land: `status` turns `PAID` when Tripay reports it. Another user's invoice is 404.",
    caller: "bearer",
    parameters: [{ in: "path", name: "id", required: true, schema: { type: "string" }, description: "The invoice id (`inv_...`)" }],
    ok: { description: "The invoice", schema: invoiceResponse },
    errors: ["NOT_FOUND"],
  }),
  requireUser,
  async (c) => c.json({ data: await getInvoice(c.env, c.get("user").id, c.req.param("id")) }),
);

// ---------------------------------------------------------------- billing details and receipts

billingRoutes.get(
  "/details",
  doc({
    operationId: "getBillingDetails",
    tags,
    summary: "Your billing details",
    description: "The company, NPWP and address your receipts are made out to (null: not given; receipts then name your account).",
    caller: "bearer",
    ok: { description: "Your billing details", schema: billingDetailsResponse },
  }),
  requireUser,
  async (c) => c.json({ data: await billingDetailsOf(c.env, c.get("user").id) }),
);

billingRoutes.put(
  "/details",
  doc({
    operationId: "updateBillingDetails",
    tags,
    summary: "Set your billing details",
    description:
      "Changes the fields given (null or empty clears one): `company_name`, `npwp` (15 digits as 99.999.999.9-999.999, or 16; dots, dashes and spaces are ignored), `address` (one line). Receipts issued from now on name them; receipts already issued keep what they said.",
    caller: "bearer",
    input: "json",
    ok: { description: "Your billing details", schema: billingDetailsResponse },
  }),
  requireUser,
  ...jsonBody(billingDetailsInput),
  async (c) => c.json({ data: await saveBillingDetailsOf(c.env, c.get("user").id, c.req.valid("json")) }),
);

/** The portal's address, for a receipt's `html_url`: DASHBOARD_URL, else this origin's /portal. */
const portalOf = (c: { env: Env; req: { url: string } }) => c.env.DASHBOARD_URL.replace(/\/$/, "") || `${new URL(c.req.url).origin}/portal`;

billingRoutes.get(
  "/receipts",
  doc({
    operationId: "listReceipts",
    tags,
    summary: "Your receipts",
    description: "A receipt (kwitansi) for each settled top-up and plan payment, newest first (at most 100).",
    caller: "bearer",
    ok: { description: "Your receipts", schema: receiptListResponse },
  }),
  requireUser,
  async (c) => c.json({ data: await listReceipts(c.env, c.get("user").id, portalOf(c)) }),
);

billingRoutes.get(
  "/receipts/:id",
  doc({
    operationId: "getReceipt",
    tags,
    summary: "One of your receipts (JSON, or a page to print)",
    description:
      "By the paid invoice's id. JSON by default; with `Accept: text/html` (a browser) the receipt as one A4 page to print or save as PDF: seller and buyer, date, Tripay reference, items, the amount in rupiah and in Indonesian words, your company and NPWP when your billing details gave them. An unpaid, unknown or another user's invoice is 404.",
    caller: "bearer",
    parameters: [{ in: "path", name: "id", required: true, schema: { type: "string" }, description: "The paid invoice's id (`inv_...`)" }],
    ok: { description: "The receipt", schema: receiptResponse, media: { "application/json": "The receipt", "text/html": "The receipt as a page (A4)" } },
    errors: ["NOT_FOUND"],
  }),
  requireUser,
  async (c) => {
    const receipt = await getReceipt(c.env, c.get("user").id, c.req.param("id"), portalOf(c));
    if (!wantsHtml(c.req.header("accept"))) return c.json({ data: receipt }, 200, { vary: "accept" });
    // A page of its own: the same strict policy as the portal's (its stylesheet and script are files).
    return c.html(receiptHtml(receipt), 200, {
      vary: "accept",
      "cache-control": "private, no-store",
      "content-security-policy":
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    });
  },
);
