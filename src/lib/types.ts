import type { Context } from "hono";
import type { UserRow } from "../auth/queries";

/** Who is calling a data endpoint: resolved from the `x-api-key` header (REST and MCP alike). */
export type Principal = { keyId: string; userId: string; plan: string };

export type AppEnv = {
  Bindings: Env;
  Variables: { requestId: string; principal: Principal; user: UserRow };
};

export type AppContext = Context<AppEnv>;
