/**
 * Who is calling an account route: the guards routes put in front of their handlers. `requireUser`
 * reads the user from D1 on every request (a suspension or a change of admin rights applies at
 * once, whatever the token says) and sets `user`; `requireAdmin` needs it first.
 */
import { createMiddleware } from "hono/factory";
import type { RequestIdVariables } from "hono/request-id";
import type { UserRow } from "../db/schema";
import { ApiError } from "../lib/errors";
import { userFromAuthorization } from "./service";

/** Set by requireUser (and by the portal's signed-in check, from the session cookie). */
export type UserVariables = RequestIdVariables & { user: UserRow };
export type UserEnv = { Bindings: Env; Variables: UserVariables };

/** `Authorization: Bearer <session JWT>` -> `user`. */
export const requireUser = createMiddleware<UserEnv>(async (c, next) => {
  c.set("user", await userFromAuthorization(c.env, c.req.header("authorization")));
  await next();
});

export const requireAdmin = createMiddleware<UserEnv>(async (c, next) => {
  if (!c.get("user").isAdmin) throw new ApiError("FORBIDDEN", "This route is for administrators.");
  await next();
});
