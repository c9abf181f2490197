import { Hono } from "hono";
import { z } from "zod";
import { publicRoute } from "../gate";
import type { BaseEnv } from "../http/context";
import { doc } from "../http/docs";

/** GET /health: the Worker answers (no auth, no D1; the benchmark's floor). */
export const healthRoutes = new Hono<BaseEnv>().get(
  "/health",
  doc({
    operationId: "getHealth",
    tags: ["Health"],
    summary: "Liveness",
    caller: "none",
    ok: { description: "The Worker answers", schema: z.object({ status: z.literal("ok") }) },
  }),
  publicRoute,
  (c) => c.json({ status: "ok" as const }),
);
