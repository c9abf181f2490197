import type { Context } from "hono";
import type { UserRow } from "../db/schema";

/** Who is calling a data endpoint: resolved from the `x-api-key` header (REST and MCP alike). */
export type Principal = { keyId: string; userId: string; plan: string };

/**
 * One data call's context, the same for both surfaces: built once per request by the API-key guard
 * (src/http/guards.ts); REST hands it to the endpoint runner, MCP to its server factory.
 */
export type DataContext = {
  env: Env;
  principal: Principal;
  requestId: string;
  waitUntil(promise: Promise<unknown>): void;
};

export type AppEnv = {
  Bindings: Env;
  /** `user`: the bearer token's user (API); `portalUser`: the portal's session cookie's user, or null. */
  Variables: { requestId: string; call: DataContext; user: UserRow; portalUser: UserRow | null };
};

export type AppContext = Context<AppEnv>;
