/**
 * One data call's context, the same for both surfaces (REST and MCP): built once per request by
 * the API-key guard (guard.ts); REST hands it to the endpoint runner, MCP to its server factory.
 */
import type { RequestIdVariables } from "hono/request-id";
import type { CorsVariables } from "../http/context";
import type { Principal } from "../keys/service";

export type { Principal };

export type DataContext = {
  env: Env;
  principal: Principal;
  requestId: string;
  /** The client's address (cf-connecting-ip), for per-address throttles of what is not metered (reports). */
  ip?: string;
  waitUntil(promise: Promise<unknown>): void;
};

/** Set by requireApiKey. `corsOrigin`: see src/http/context.ts (set for publishable keys). */
export type CallVariables = RequestIdVariables & CorsVariables & { call: DataContext };
export type CallEnv = { Bindings: Env; Variables: CallVariables };
