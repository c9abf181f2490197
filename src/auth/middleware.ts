import { createMiddleware } from "hono/factory";
import { primaryDb } from "../db/client";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../lib/types";
import { findUserById } from "./queries";
import { verifySession } from "./tokens";

/**
 * `Authorization: Bearer <session JWT>` -> the current user, read from D1 on every request, so a
 * suspension or a change of admin rights applies at once, whatever the token says.
 */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const header = c.req.header("authorization");
  if (!header) throw new ApiError("MISSING_TOKEN", "Send a session token: Authorization: Bearer <token> (from /auth/login).");
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header.trim());
  if (!match) throw new ApiError("UNAUTHORIZED", "Malformed Authorization header; expected: Bearer <token>.");
  const claims = await verifySession(c.env, match[1]);
  const user = await findUserById(primaryDb(c.env), claims.id);
  if (!user) throw new ApiError("INVALID_TOKEN", "The account of this token no longer exists.");
  if (user.status === "suspended") throw new ApiError("ACCOUNT_SUSPENDED", "This account is suspended. Contact support.");
  c.set("user", user);
  await next();
});

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get("user").isAdmin) throw new ApiError("FORBIDDEN", "This route is for administrators.");
  await next();
});
