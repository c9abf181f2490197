import { Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../http/guards";
import type { AppEnv } from "../lib/types";
import { queryParams } from "../lib/validate";
import { currentMonth, monthUsage } from "./service";

/** Mounted at /user/usage. */
export const usageRoutes = new Hono<AppEnv>();

usageRoutes.get(
  "/",
  requireUser,
  queryParams(z.strictObject({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "month must be YYYY-MM").optional() })),
  async (c) => c.json({ data: await monthUsage(c.env, c.get("user").id, c.req.valid("query").month ?? currentMonth()) }),
);
