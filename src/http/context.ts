/**
 * What every request of this app carries, in Hono's style: the Worker's bindings and the request id
 * (set by `hono/request-id` in app.ts). Each guard exports the Variables it adds (auth/guards.ts:
 * `user`; data/guard.ts: `call`; portal: `portalUser`), so `c.get("user")` is typed only on routes
 * where that guard ran.
 */
import type { RequestIdVariables } from "hono/request-id";

export type BaseEnv = { Bindings: Env; Variables: RequestIdVariables };
