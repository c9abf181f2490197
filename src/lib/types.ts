import type { Context } from "hono";

/** Who is calling a data endpoint: resolved from the `x-api-key` header (REST and MCP alike). */
export type Principal = { keyId: string; userId: string };

export type AppEnv = {
  Bindings: Env;
  Variables: { requestId: string; principal: Principal };
};

export type AppContext = Context<AppEnv>;
