/**
 * What every request of this app carries, in Hono's style: the Worker's bindings and the request id
 * (set by `hono/request-id` in app.ts). Each guard exports the Variables it adds (auth/guards.ts:
 * `user`; data/guard.ts: `call`; portal: `portalUser`), so `c.get("user")` is typed only on routes
 * where that guard ran.
 */
import type { RequestIdVariables } from "hono/request-id";

/**
 * The origin CORS may answer, when a guard narrowed it (a publishable key's request): that origin,
 * or null for none. Unset: the surface's own rule (the data API: any origin).
 */
export type CorsVariables = { corsOrigin?: string | null };

export type BaseEnv = { Bindings: Env; Variables: RequestIdVariables & CorsVariables };

/** Where a request comes from, as the audit trail and the throttles take it: client IP and request id. */
export function requestMeta(c: { req: { header(name: string): string | undefined }; get(key: "requestId"): string }): {
  ip: string | undefined;
  requestId: string | undefined;
} {
  return { ip: c.req.header("cf-connecting-ip"), requestId: c.get("requestId") };
}
