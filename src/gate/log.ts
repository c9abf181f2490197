/**
 * A key's calls on a route that declares `log` go into its account's request log (issue 54), here,
 * where the caller, the route and the outcome are all known: the calls answered, and the calls the
 * gate itself refuses for a known key (a 402 at the quota or the spend limit, a 429 at the rate, a
 * page's key from an origin it does not allow), which never reach the route. Only API keys: the log
 * is of a key's calls (MCP logs its tool calls itself, one line per call, not per request).
 */
import type { Context } from "hono";
import { type AnsweredCall, logCall, logTile } from "../account/request-log";
import { requestOrigin } from "../keys/publishable";
import { failureCode } from "../lib/dependency";
import { ApiError } from "../lib/errors";
import type { Caller } from "./callers";
import type { GatePolicy } from "./policy";

/** Logs the call: `refusal` when the gate refused it, else the answer the route made (`c.res`, `c.error`). */
export function logKeyCall(c: Context, policy: GatePolicy, caller: Caller, startedAt: number, refusal?: unknown): void {
  if (!policy.log || (caller.kind !== "secretKey" && caller.kind !== "publishableKey")) return;
  const failure = refusal ?? c.error;
  const call: AnsweredCall = {
    principal: caller.principal,
    requestId: c.get("requestId"),
    ip: c.req.header("cf-connecting-ip"),
    surface: policy.log.surface,
    method: c.req.method,
    route: policy.log.route,
    status: refusal === undefined ? c.res.status : refusal instanceof ApiError ? refusal.status : 500,
    code: failure === undefined ? null : failureCode(failure),
    startedAt,
    version: refusal === undefined ? c.res.headers.get("x-data-version") : null,
  };
  const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
  if (policy.log.surface === "tiles") logTile(c.env, waitUntil, call, requestOrigin(c.req.header("origin"), c.req.header("referer")));
  else logCall(c.env, waitUntil, call);
}
