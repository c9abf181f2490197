/**
 * Who is calling an account route: the guards routes put in front of their handlers. `requireUser`
 * reads the user from D1 on every request (a suspension or a change of admin rights applies at
 * once, whatever the token says) and sets `user`; `requireAdmin` needs it first.
 */
import { createMiddleware } from "hono/factory";
import type { RequestIdVariables } from "hono/request-id";
import type { UserRow } from "../db/schema";
import { ApiError } from "../lib/errors";
import { userFromSession } from "./service";

/** Set by requireUser (and by the portal's signed-in check, from the session cookie). */
export type UserVariables = RequestIdVariables & { user: UserRow };
export type UserEnv = { Bindings: Env; Variables: UserVariables };

/**
 * The token of an `Authorization: Bearer <token>` header (the scheme name is case-insensitive, RFC
 * 7235). Read here, at the edge, so the auth service only ever sees a token.
 */
export function bearerToken(header: string | undefined): string {
  if (!header) throw new ApiError("MISSING_TOKEN", "Send a session token: Authorization: Bearer <token> (from /auth/login).");
  const match = /^Bearer +([A-Za-z0-9_\-.]+)$/i.exec(header.trim());
  if (!match) throw new ApiError("UNAUTHORIZED", "Malformed Authorization header; expected: Bearer <token>.");
  return match[1];
}

/** `Authorization: Bearer <session JWT>` -> `user`. */
export const requireUser = createMiddleware<UserEnv>(async (c, next) => {
  c.set("user", await userFromSession(c.env, bearerToken(c.req.header("authorization"))));
  await next();
});

export const requireAdmin = createMiddleware<UserEnv>(async (c, next) => {
  if (!c.get("user").isAdmin) throw new ApiError("FORBIDDEN", "This route is for administrators.");
  await next();
});
