import { Hono } from "hono";
import { z } from "zod";
import { requireAdmin, requireUser } from "../http/guards";
import { pageParams } from "../lib/paging";
import type { AppEnv } from "../lib/types";
import { displayText, jsonBody, queryParams } from "../lib/validate";
import { adminGrantCredits, adminGrantSubscription, getUser, listUsers, overallStats, patchUser } from "./service";

/** Mounted at /admin: bearer token of an admin (checked per route, so unknown paths stay 404). */
export const adminRoutes = new Hono<AppEnv>();
const admin = [requireUser, requireAdmin] as const;

adminRoutes.get("/users", ...admin, queryParams(z.strictObject({ q: z.string().max(100).optional(), ...pageParams })), async (c) =>
  c.json(await listUsers(c.env, c.req.valid("query"))),
);

adminRoutes.get("/users/:id", ...admin, async (c) => c.json(await getUser(c.env, c.req.param("id"))));

adminRoutes.patch(
  "/users/:id",
  ...admin,
  ...jsonBody(
    z
      .strictObject({ status: z.enum(["active", "suspended"]).optional(), is_admin: z.boolean().optional() })
      .refine((b) => b.status !== undefined || b.is_admin !== undefined, "give status and/or is_admin"),
  ),
  async (c) => c.json(await patchUser(c.env, c.req.param("id"), c.req.valid("json"))),
);

adminRoutes.get("/stats", ...admin, async (c) => c.json(await overallStats(c.env)));

adminRoutes.post(
  "/users/:id/credits",
  ...admin,
  ...jsonBody(z.strictObject({ amount: z.number().int().refine((n) => n !== 0, "must not be 0").refine((n) => Math.abs(n) <= 100_000_000, "too large"), reason: displayText(3, 200) })),
  async (c) => {
    const { amount, reason } = c.req.valid("json");
    return c.json(await adminGrantCredits(c.env, c.req.param("id"), amount, reason, c.get("user").id), 201);
  },
);

adminRoutes.post(
  "/users/:id/subscription",
  ...admin,
  ...jsonBody(z.strictObject({ plan_id: z.string().min(1).max(40), months: z.number().int().min(1).max(36).default(1) })),
  async (c) => {
    const { plan_id, months } = c.req.valid("json");
    return c.json(await adminGrantSubscription(c.env, c.req.param("id"), plan_id, months), 201);
  },
);
