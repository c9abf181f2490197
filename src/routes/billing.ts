import { Hono } from "hono";
import { z } from "zod";
import {
  creditsResponse,
  invoiceListResponse,
  invoiceResponse,
  planIdInput,
  plansResponse,
  statusResponse,
  topupAmountInput,
  tripayCallbackSchema,
  webhookResponse,
} from "../billing/schemas";
import { billingStatus, credits, getInvoice, handleTripayCallback, listInvoices, listPlans, subscribe, topup } from "../billing/service";
import { gate, publicRoute, requireUser } from "../gate";
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
