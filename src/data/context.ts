/**
 * One data call's context, the same for both surfaces (REST and MCP): built once per request by
 * the gate (src/gate, its CallContext); REST hands it to the endpoint runner, MCP to its server factory.
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
  /** The one call the gate admitted before the input was read (REST), taken once by the runner's admission. */
  prepaid?: { take(): boolean };
};

/** Set by the gate (src/gate) for a key caller. `corsOrigin`: see src/http/context.ts (set for publishable keys). */
export type CallVariables = RequestIdVariables & CorsVariables & { call: DataContext };
export type CallEnv = { Bindings: Env; Variables: CallVariables };
