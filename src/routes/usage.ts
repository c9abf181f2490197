import { Hono } from "hono";
import { z } from "zod";
import { usageResponse } from "../account/schemas";
import { currentMonth, monthUsage } from "../account/usage";
import { requireUser } from "../gate";
import type { BaseEnv } from "../http/context";
import { doc } from "../http/docs";
import { queryParams } from "../http/validate";

/** Mounted at /user/usage. */
export const usageRoutes = new Hono<BaseEnv>();

usageRoutes.get(
  "/",
  doc({
    operationId: "getUsage",
    tags: ["Usage"],
    summary: "Your usage in a month",
    description:
      "Successful data calls (REST and MCP) in one UTC month: the total, per key, per endpoint and per day. Exact at any moment, including calls not yet written to the database.",
    caller: "bearer",
    input: "query",
    ok: { description: "The month's usage", schema: usageResponse },
  }),
  requireUser,
  queryParams(
    z.strictObject({
      month: z
        .string()
        .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "month must be YYYY-MM")
        .optional()
        .describe("YYYY-MM (UTC); default: this month"),
    }),
  ),
  async (c) => c.json({ data: await monthUsage(c.env, c.get("user").id, c.req.valid("query").month ?? currentMonth()) }),
);
