import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../lib/types";
import { resolveApiKey } from "./service";

/** `x-api-key` -> principal, for the data API and the MCP surface. */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const principal = await resolveApiKey(c.env, c.req.header("x-api-key"), (p) => c.executionCtx.waitUntil(p));
  c.set("principal", principal);
  await next();
});
