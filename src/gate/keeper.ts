/**
 * The gate itself: one middleware of the whole app (src/app.ts), run for every request before any
 * route's own chain. It finds the route that will answer (the router's match) and its declared
 * policy, then, in this order and before a byte of the body is read:
 *   1. methods: an `all` route's methods, HEAD only where declared (405);
 *   2. the body's declared length against the route's limit (413), and from then on the body is
 *      read only through a counter that fails past the limit (413 as soon as it passes);
 *   3. who is calling (callers.ts: 401, 403; the portal's login page for a page without a session);
 *   4. per-client throttles of anonymous routes (429);
 *   5. the account's rate and quota as the route meters them (meter.ts: 403 PLAN_REQUIRED, 429, 402),
 *      a key's call, answered or refused, logged in its account's request log where the route declares `log`.
 * Then the route runs; a metered call that did not succeed is given back. A route without a
 * declared policy is refused (500) and the route table test fails before it ships.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { UserRow } from "../db/schema";
import type { BaseEnv } from "../http/context";
import { ApiError } from "../lib/errors";
import { log } from "../lib/log";
import { throttle } from "../lib/throttle";
import { bodyLimitOf, countBody, refuseDeclaredLength } from "./body";
import { type Caller, identify, PortalSignIn, refusedKeyOf } from "./callers";
import { logKeyCall } from "./log";
import { admitBeforeBody, type CallContext } from "./meter";
import { clientNetwork } from "./network";
import type { GatePolicy } from "./policy";
import { policyOfMatch } from "./policy";

/** What the gate sets on a request, for the route's handler. */
type GateVariables = {
  caller: Caller;
  /** Key callers: the call's context (src/data/context.ts DataContext has the same shape). */
  call?: CallContext;
  /** Session and admin callers, and a portal page's signed-in user. */
  user?: UserRow;
  /** Portal pages: the signed-in user, or null. */
  portalUser?: UserRow | null;
  corsOrigin?: string | null;
};

type GateContext = Context<{ Bindings: Env; Variables: GateVariables & BaseEnv["Variables"] }>;

/** Anonymous throttles: the limiter and its key prefix. */
function throttleOf(env: Env, name: NonNullable<GatePolicy["throttle"]>): RateLimit {
  return name === "demo" ? env.DEMO_LIMITER : env.MAP_LIMITER;
}

/** Whether HEAD is answered on the route (as GET, without a body): declared, or a public page that meters nothing. */
const headServed = (p: GatePolicy) => p.head ?? (p.callers.includes("anyone") && p.meter === undefined && p.throttle === undefined);

export const gateKeeper: MiddlewareHandler<BaseEnv> = async (c, next) => {
  const startedAt = Date.now();
  if (c.req.method === "OPTIONS") return next(); // preflights: answered by CORS (src/http/cors.ts), or 404/405
  const { route, policy } = policyOfMatch(matchedRoutes(c));
  if (!route) return next(); // nothing answers here: 404 or 405 (src/http/errors.ts)
  if (!policy) {
    log.error("route_without_caller_policy", { method: route.method, path: route.path });
    throw new ApiError("INTERNAL_ERROR", "This route declares no caller policy.");
  }
  const g = c as unknown as GateContext;
  const method = c.req.method;
  if (route.method === "ALL" && policy.methods && !policy.methods.includes(method))
    throw new ApiError("METHOD_NOT_ALLOWED", `${method} is not allowed here; use ${policy.methods.join(", ")}.`, {
      headers: { allow: policy.methods.join(", ") },
    });
  if (method === "HEAD" && !headServed(policy))
    throw new ApiError("METHOD_NOT_ALLOWED", `HEAD is not served here; use ${route.method === "ALL" ? "POST" : route.method}.`, {
      headers: { allow: route.method === "ALL" ? (policy.methods ?? ["POST"]).join(", ") : route.method },
    });

  const limit = bodyLimitOf(policy);
  refuseDeclaredLength(c, limit);
  // From here on the body is read through a counter (nothing is read yet): the only reader before
  // the route is Tripay's signature check, over a body this bounds.
  countBody(c, limit);

  let caller: Caller;
  try {
    caller = await identify(c, policy, (origin) => g.set("corsOrigin", origin));
  } catch (e) {
    if (e instanceof PortalSignIn) return c.redirect("/portal/login", 303);
    const refusedKey = refusedKeyOf(e);
    if (refusedKey) logKeyCall(c, policy, { kind: "publishableKey", principal: refusedKey }, startedAt, e);
    if (policy.challenge && e instanceof ApiError && e.status === 401)
      throw new ApiError(e.code, e.message, { headers: { ...e.extra.headers, "www-authenticate": policy.challenge } });
    throw e;
  }
  g.set("caller", caller);
  if (caller.kind === "session" || caller.kind === "admin") g.set("user", caller.user);
  if (caller.kind === "portalSession" || caller.kind === "portalVisitor") g.set("portalUser", caller.user);

  if (policy.throttle && (caller.kind === "anyone" || caller.kind === "siteMap"))
    await throttle(throttleOf(c.env, policy.throttle), `${policy.throttle}:${clientNetwork(c.req.header("cf-connecting-ip"))}`, 60);

  let admitted: Awaited<ReturnType<typeof admitBeforeBody>>;
  try {
    admitted = await admitBeforeBody(c, policy, caller);
  } catch (refusal) {
    logKeyCall(c, policy, caller, startedAt, refusal);
    throw refusal;
  }
  if (admitted.call) g.set("call", admitted.call);
  try {
    await next();
  } finally {
    await admitted.settle(c.error !== undefined || c.res.status >= 400, c.res.status);
    logKeyCall(c, policy, caller, startedAt);
  }
};
