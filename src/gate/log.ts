/**
 * The calls the gate refuses for a known key go into the account's request log (issue 54: a 402 at
 * the quota or the spend limit, a 429 at the rate is the line a customer looks for). They never
 * reach the route, whose own logging (src/routes/request-log.ts, the data runner's `record`) takes
 * every call that does. Only where the route declares `log`, and only for API keys: the log is of a
 * key's calls (a portal session's work is logged by the page that does it).
 */
import type { Context } from "hono";
import { type AnsweredCall, logCall, logTile } from "../account/request-log";
import { requestOrigin } from "../keys/publishable";
import { failureCode } from "../lib/dependency";
import { ApiError } from "../lib/errors";
import type { Caller } from "./callers";
import type { GatePolicy } from "./policy";

export function logRefusal(c: Context, policy: GatePolicy, caller: Caller, refusal: unknown, startedAt: number): void {
  if (!policy.log || (caller.kind !== "secretKey" && caller.kind !== "publishableKey")) return;
  const call: AnsweredCall = {
    principal: caller.principal,
    requestId: c.get("requestId"),
    ip: c.req.header("cf-connecting-ip"),
    surface: policy.log.surface,
    method: c.req.method,
    route: policy.log.route,
    status: refusal instanceof ApiError ? refusal.status : 500,
    code: failureCode(refusal),
    startedAt,
    version: null,
  };
  const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
  if (policy.log.surface === "tiles") logTile(c.env, waitUntil, call, requestOrigin(c.req.header("origin"), c.req.header("referer")));
  else logCall(c.env, waitUntil, call);
}
