/**
 * The bearer session as the gate (src/gate) reads it: the header's token, and the variables a
 * session route gets (`user`, read from D1 on every request: a suspension or a change of admin
 * rights applies at once, whatever the token says). Routes declare `requireUser` / `requireAdmin`
 * from the gate.
 */
import type { RequestIdVariables } from "hono/request-id";
import type { UserRow } from "../db/schema";
import { ApiError } from "../lib/errors";

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
