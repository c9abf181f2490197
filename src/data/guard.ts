/** `x-api-key` -> the call's context (principal, request id, waitUntil), for the data API and the MCP surface. */
import { createMiddleware } from "hono/factory";
import { resolveApiKey } from "../keys/service";
import type { CallEnv } from "./context";

export const requireApiKey = createMiddleware<CallEnv>(async (c, next) => {
  const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
  const principal = await resolveApiKey(c.env, c.req.header("x-api-key"), waitUntil, c.req.header("cf-connecting-ip"));
  c.set("call", { env: c.env, principal, requestId: c.get("requestId"), waitUntil });
  await next();
});
