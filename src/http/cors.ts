/**
 * CORS for the data API: any origin, no credentials. Preflights are Hono's `cors`. On every other
 * request Hono's `cors` sets its headers on a response made before the handler runs, and Hono then
 * rebuilds the handler's response to carry them over (a new Response and a header copy on every
 * call); here the same headers are set on the final response instead. That response is always one
 * the app made (`c.body`/`c.json`, the error and not-found handlers), so its headers are mutable.
 * A publishable key's request is answered for its own origin only (`corsOrigin`, set by the key guard).
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { BaseEnv } from "./context";

function publicCors(opts: { allowMethods: string[]; allowHeaders: string[]; exposeHeaders: string[]; maxAge: number }): MiddlewareHandler<BaseEnv> {
  const preflight = cors({ origin: "*", ...opts });
  const expose = opts.exposeHeaders.join(",");
  return async (c, next) => {
    // A preflight carries no x-api-key (browsers never send it one), so it cannot know a
    // publishable key's origins: it allows any, and the request itself is then checked.
    if (c.req.method === "OPTIONS") return preflight(c, next);
    await next();
    // A publishable key's request (the key guard narrowed it): its own origin when allowed, else no
    // CORS at all, so a page elsewhere cannot read the answer, not even the refusal.
    const only = c.get("corsOrigin");
    if (only === null) return;
    c.res.headers.set("access-control-allow-origin", only ?? "*");
    c.res.headers.set("access-control-expose-headers", expose);
    if (only) c.res.headers.append("vary", "origin");
  };
}

const PUBLIC_CORS = {
  allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
  allowHeaders: ["x-api-key", "x-map-token", "authorization", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id", "range"],
  // content-disposition, etag and the checksums: bulk exports (a browser may download one too).
  exposeHeaders: [
    "x-request-id",
    "x-data-version",
    "x-cache",
    "retry-after",
    "mcp-session-id",
    "content-disposition",
    "etag",
    "x-checksum-sha256",
    "x-export-id",
    // range requests of the FlatGeobuf files, and the OGC items' next page
    "content-range",
    "accept-ranges",
    "link",
  ],
  maxAge: 86_400,
};

/** The data API (`/api/v1/*`), the vector tiles (`/tiles/*`) and the OGC API (`/ogc`): any origin, no credentials. */
export const dataCors = publicCors(PUBLIC_CORS);

/**
 * `/mcp`: the same rules. MCP answers are the SDK transport's own Responses: Hono's cors, whose
 * header copy also carries the request id onto them.
 */
export const mcpCors = cors({ origin: "*", ...PUBLIC_CORS });

/**
 * Account routes answer the dashboard only: its origin when DASHBOARD_URL names one elsewhere; with
 * no DASHBOARD_URL the dashboard is the portal on this origin, which needs no CORS.
 */
export const accountCors: MiddlewareHandler<BaseEnv> = async (c, next) => {
  if (c.req.path.startsWith("/api/v1/") || c.req.path.startsWith("/mcp") || c.req.path.startsWith("/tiles/") || /^\/ogc(\/|$)/.test(c.req.path)) return next();
  if (!c.env.DASHBOARD_URL) return next();
  return cors({ origin: c.env.DASHBOARD_URL, allowHeaders: ["authorization", "content-type"], exposeHeaders: ["x-request-id", "retry-after"], maxAge: 86_400 })(
    c,
    next,
  );
};
