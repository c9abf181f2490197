import { Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../http/guards";
import { pageParams } from "../lib/paging";
import type { AppEnv } from "../lib/types";
import { jsonBody, queryParams } from "../lib/validate";
import { billingStatus, credits, getInvoice, handleTripayCallback, listInvoices, listPlans, subscribe, TOPUP, topup } from "./service";

/** Mounted at /billing. */
export const billingRoutes = new Hono<AppEnv>();

billingRoutes.get("/plans", async (c) => c.json(await listPlans(c.env)));

const amount = z
  .number({ error: "amount must be a whole number of rupiah" })
  .int("amount must be a whole number of rupiah")
  .min(TOPUP.min, `at least Rp${TOPUP.min.toLocaleString("en")}`)
  .max(TOPUP.max, `at most Rp${TOPUP.max.toLocaleString("en")}`)
  .multipleOf(TOPUP.step, `a multiple of Rp${TOPUP.step.toLocaleString("en")}`);

billingRoutes.post("/topup", requireUser, ...jsonBody(z.strictObject({ amount })), async (c) =>
  c.json(await topup(c.env, c.get("user"), c.req.valid("json").amount), 201),
);

billingRoutes.post("/subscribe", requireUser, ...jsonBody(z.strictObject({ plan_id: z.string().min(1).max(40) })), async (c) =>
  c.json(await subscribe(c.env, c.get("user"), c.req.valid("json").plan_id), 201),
);

// Authenticated by its HMAC signature over the raw body, not by a token.
billingRoutes.post("/tripay/webhook", async (c) => {
  const raw = await c.req.text();
  const answer = await handleTripayCallback(
    c.env,
    raw,
    { signature: c.req.header("x-callback-signature"), event: c.req.header("x-callback-event") },
    (p) => c.executionCtx.waitUntil(p),
  );
  return c.json(answer);
});

billingRoutes.get("/status", requireUser, async (c) => c.json(await billingStatus(c.env, c.get("user").id)));

billingRoutes.get("/credits", requireUser, queryParams(z.strictObject(pageParams)), async (c) => c.json(await credits(c.env, c.get("user").id, c.req.valid("query"))));

billingRoutes.get("/invoices", requireUser, queryParams(z.strictObject(pageParams)), async (c) =>
  c.json(await listInvoices(c.env, c.get("user").id, c.req.valid("query"))),
);

billingRoutes.get("/invoices/:id", requireUser, async (c) => c.json(await getInvoice(c.env, c.get("user").id, c.req.param("id"))));
