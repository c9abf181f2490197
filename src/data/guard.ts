/**
 * `x-api-key` -> the call's context (principal, request id, waitUntil), for the data API, bulk jobs
 * and the MCP surface. Each mount names the tag of what it serves: a publishable key is checked
 * against its origins and the one list of what it may call (src/keys/publishable.ts), and CORS then
 * answers only its origin (src/http/cors.ts reads `corsOrigin`).
 */
import { createMiddleware } from "hono/factory";
import { admitPublishable, originAllowed, requestOrigin } from "../keys/publishable";
import { resolveApiKey } from "../keys/service";
import type { CallEnv } from "./context";

export function requireApiKey(tag: string) {
  return createMiddleware<CallEnv>(async (c, next) => {
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    const origin = requestOrigin(c.req.header("origin"), c.req.header("referer"));
    const principal = await resolveApiKey(c.env, c.req.header("x-api-key"), waitUntil, c.req.header("cf-connecting-ip"), origin);
    if (principal.publishable) {
      // Set before the checks, so a refusal is not readable by a page elsewhere either.
      c.set("corsOrigin", origin !== undefined && originAllowed(principal.publishable.allowedOrigins, origin) ? origin : null);
      admitPublishable(principal.publishable, origin, tag);
    }
    c.set("call", { env: c.env, principal, requestId: c.get("requestId"), ip: c.req.header("cf-connecting-ip"), waitUntil });
    await next();
  });
}
