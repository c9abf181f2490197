/**
 * One data call's context, the same for both surfaces (REST and MCP): built once per request by
 * the gate (src/gate, its CallContext); REST hands it to the endpoint runner, MCP to its server factory.
 */
import type { RequestIdVariables } from "hono/request-id";
import type { RegionReads } from "../db/reads";
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

/**
 * What a data endpoint's handler is given: the call's context and the answer's region reads
 * (src/db/reads.ts), made by the runner for each answer (run.ts), so a handler and the services it
 * calls read one version of the data through one D1 handle, and say so in their parameters.
 */
export type AnswerContext = DataContext & { reads: RegionReads };

/** Set by the gate (src/gate) for a key caller. `corsOrigin`: see src/http/context.ts (set for publishable keys). */
export type CallVariables = RequestIdVariables & CorsVariables & { call: DataContext };
export type CallEnv = { Bindings: Env; Variables: CallVariables };
