/**
 * The caller policy of a route, as the route declares it (see index.ts for how), and how the gate
 * finds it again: from the router's own table of what matched (at request time) or what is
 * registered (the route table test, the security suite). Knows nothing of keys or sessions.
 */
import type { Hono, Env as HonoEnv, MiddlewareHandler } from "hono";
import { findTargetHandler, isMiddleware } from "hono/utils/handler";

/**
 * Who may call a route. A route names every kind it takes; a request carrying none of them is
 * refused by the gate before its handler runs (and before its body is read).
 * - `anyone`: no credential (public pages, the plan catalog, login). Credentials sent are ignored.
 * - `secretKey`: `x-api-key: wk_live_...` (a server's key).
 * - `publishableKey`: `x-api-key: wk_pub_...` from one of the key's allowed origins (a web page's key).
 * - `session`: `Authorization: Bearer <session JWT>` (the account routes).
 * - `admin`: a session of an administrator.
 * - `portalSession`: the portal's session cookie; without one a page redirects to /portal/login.
 * - `portalVisitor`: a portal page for anyone, which knows the signed-in user when there is one.
 * - `siteMap`: this site's own map (/map, the landing page), by the short-lived token its page carries.
 * - `tripay`: Tripay's payment callback, by its HMAC signature over the raw body.
 */
export type CallerKind = "anyone" | "secretKey" | "publishableKey" | "session" | "admin" | "portalSession" | "portalVisitor" | "siteMap" | "tripay";

/**
 * What the gate admits before the handler runs (and before the body is read), for a caller with an account:
 * - `call`: one metered call (the plan's rate, then quota and credits; 429, 402), counted now and
 *   given back unless the answer is a success; a batch admits its other calls once its body is read.
 * - `tile`: a tenth of a call (src/tiles/metering.ts): every tile is paid for before it is served.
 * - `upload`: the plan's rate, and quota or credits left for at least one call (402 before a byte
 *   of the file is read); the job reserves its rows once the file is scanned.
 * - `rate`: the plan's rate only (MCP: tool calls are admitted by the tool; the OGC API's metadata).
 * - `range`: a file read by HTTP range requests (the FlatGeobuf exports): a GET whose `Range` names at
 *   most RANGE_CALL_BYTES (meter.ts) is a tenth of a call, as a tile; any other GET (the whole file,
 *   an open or a longer range) one call; HEAD (the size) the plan's rate only. Reading a file by
 *   ranges never costs less than downloading it.
 * - absent: the account's request rate (REQUEST_LIMITER), for what is not metered.
 */
export type Meter = "call" | "tile" | "upload" | "rate" | "range";

/** Per-client-network throttles of callers without an account (wrangler.toml: DEMO_LIMITER, MAP_LIMITER). */
export type Throttle = "demo" | "map";

export type GatePolicy = {
  callers: readonly CallerKind[];
  /** What the route is, as a publishable key's list names it (src/keys/publishable.ts PUBLISHABLE_TAGS) and refusals say. */
  tag?: string;
  meter?: Meter;
  /** The endpoint a metered call is counted under (usage's `by_endpoint`). */
  endpoint?: string;
  /** "paid": the free plan is refused (403 PLAN_REQUIRED) before anything is counted. */
  plans?: "paid";
  /**
   * The largest request body read, in bytes, or "upload" (a bulk job's file: 200 MB, streamed and
   * counted by its scanner). Default: 64 KiB. Larger is refused with 413 before a byte is read
   * (Content-Length), or as soon as the count passes it (a body without one).
   */
  body?: number | "upload";
  throttle?: Throttle;
  /** HEAD is answered as GET without a body. Default: only for routes that take `anyone` and meter nothing. */
  head?: boolean;
  /** The methods a route registered for every method (`app.all`) takes; others are 405. */
  methods?: readonly string[];
  /** A `WWW-Authenticate` challenge for the route's 401s (MCP names its header scheme). */
  challenge?: string;
  /** The caller must be an administrator (a session's or the portal's): 403 FORBIDDEN otherwise. */
  admin?: boolean;
  /**
   * A query parameter that may carry the API key, on routes whose clients cannot always send a
   * header (GIS tools: the OGC API and the FlatGeobuf files take `?api_key=`). Only where declared: a
   * key in a URL ends up in logs and histories, so no other route reads one there. The gate takes
   * the parameter out of the request's URL before anything else reads it (on every route declaring
   * it, a keyless one too), so no handler, link or log line ever sees it; given twice, or beside an
   * `x-api-key` naming another key, it is 400 INVALID_QUERY (which key pays must never be a guess).
   */
  keyParam?: string;
  /**
   * The account's request log (src/account/request-log.ts) takes this route's calls by API keys,
   * under this surface and route name: the gate logs each, answered or refused (./log.ts).
   */
  log?: { surface: "rest" | "tiles" | "jobs"; route: string };
};

/** A part of a policy, as one middleware of a route's chain declares it; the parts of a chain are merged in order. */
export type PolicyPart = Partial<GatePolicy>;

const GATE = Symbol.for("wilayah.gate");

type Marked = MiddlewareHandler & { [GATE]?: PolicyPart };

/**
 * A route's declaration: a middleware that does nothing but carry its part of the policy (the gate,
 * app-wide, reads it from the router before the route's chain runs). Put it in the route's chain.
 */
export function gate<E extends HonoEnv = HonoEnv>(part: PolicyPart): MiddlewareHandler<E> {
  const mark: Marked = async (_c, next) => {
    await next();
  };
  mark[GATE] = part;
  return mark as MiddlewareHandler<E>;
}

/** Adds a policy part to a middleware that also does something itself (the portal's `signedIn`). */
export function declaring<M extends MiddlewareHandler>(middleware: M, part: PolicyPart): M {
  (middleware as Marked)[GATE] = part;
  return middleware;
}

const partOf = (handler: unknown): PolicyPart | undefined => (findTargetHandler(handler as never) as Marked)[GATE];

/** The parts merged (later ones win field by field), or undefined when none names its callers. */
function merged(parts: PolicyPart[]): GatePolicy | undefined {
  const p = Object.assign({}, ...parts) as PolicyPart;
  return p.callers ? (p as GatePolicy) : undefined;
}

type RouterRoute = { method: string; path: string; handler: unknown };

/**
 * A route's parts: those in its own chain, after those of `app.use(path, gate(...))` on exactly its
 * path (how src/app.ts declares a route of a domain that imports no gate, such as the Atom feed).
 */
const partsOf = (parts: Map<string, PolicyPart[]>, r: { method: string; path: string }) => [
  ...(r.method !== "ALL" ? (parts.get(`ALL ${r.path}`) ?? []) : []),
  ...(parts.get(`${r.method} ${r.path}`) ?? []),
];

/**
 * The route that will answer, among the router's matches for this request (in order: the app's
 * middleware, then each route's chain), and its policy: the parts declared in that route's chain.
 * `undefined` route: nothing answers this path and method (404 or 405 follow).
 */
export function policyOfMatch(matched: readonly RouterRoute[]): { route?: { method: string; path: string }; policy?: GatePolicy } {
  const parts = new Map<string, PolicyPart[]>();
  for (const r of matched) {
    const handler = findTargetHandler(r.handler as never);
    const key = `${r.method} ${r.path}`;
    if (isMiddleware(handler)) {
      const part = (handler as Marked)[GATE];
      if (part) parts.set(key, [...(parts.get(key) ?? []), part]);
      continue;
    }
    return { route: { method: r.method, path: r.path }, policy: merged(partsOf(parts, r)) };
  }
  return {};
}

/** Every route an app serves (method and path, middleware left out) with its declared policy, in registration order. */
export function routePolicies<E extends HonoEnv>(app: Hono<E>): { method: string; path: string; policy?: GatePolicy }[] {
  const parts = new Map<string, PolicyPart[]>();
  const out: { method: string; path: string; policy?: GatePolicy }[] = [];
  const seen = new Set<string>();
  for (const r of app.routes) {
    const key = `${r.method} ${r.path}`;
    if (isMiddleware(findTargetHandler(r.handler))) {
      const part = partOf(r.handler);
      if (part) parts.set(key, [...(parts.get(key) ?? []), part]);
      continue;
    }
    if (seen.has(key)) continue; // a second registration of the same route never answers
    seen.add(key);
    out.push({ method: r.method, path: r.path, policy: merged(partsOf(parts, r)) });
  }
  return out;
}
