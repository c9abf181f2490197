/**
 * Who is calling: the guards the routes put in front of their handlers. Each resolves its
 * credential through the owning feature's service and puts the result on the request once.
 */
import { createMiddleware } from "hono/factory";
import { userFromAuthorization } from "../auth/service";
import { resolveApiKey } from "../keys/service";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../lib/types";

/** `x-api-key` -> the call's context (principal, request id, waitUntil), for the data API and the MCP surface. */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
  const principal = await resolveApiKey(c.env, c.req.header("x-api-key"), waitUntil);
  c.set("call", { env: c.env, principal, requestId: c.get("requestId"), waitUntil });
  await next();
});

/**
 * `Authorization: Bearer <session JWT>` -> the current user, read from D1 on every request, so a
 * suspension or a change of admin rights applies at once, whatever the token says.
 */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  c.set("user", await userFromAuthorization(c.env, c.req.header("authorization")));
  await next();
});

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get("user").isAdmin) throw new ApiError("FORBIDDEN", "This route is for administrators.");
  await next();
});
