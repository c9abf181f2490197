/**
 * One data call's context, the same for both surfaces (REST and MCP): built once per request by
 * the API-key guard (guard.ts); REST hands it to the endpoint runner, MCP to its server factory.
 */
import type { RequestIdVariables } from "hono/request-id";
import type { Principal } from "../keys/service";

export type { Principal };

export type DataContext = {
  env: Env;
  principal: Principal;
  requestId: string;
  waitUntil(promise: Promise<unknown>): void;
};

/** Set by requireApiKey. */
export type CallVariables = RequestIdVariables & { call: DataContext };
export type CallEnv = { Bindings: Env; Variables: CallVariables };
