/**
 * CORS for the public surfaces (data API, MCP): any origin, no credentials. Preflights are Hono's
 * `cors`. On every other request Hono's `cors` sets its headers on a response made before the
 * handler runs, and Hono then rebuilds the handler's response to carry them over (a new Response
 * and a header copy on every call); here the same headers are set on the final response instead.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

export function publicCors(opts: { allowMethods: string[]; allowHeaders: string[]; exposeHeaders: string[]; maxAge: number }): MiddlewareHandler {
  const preflight = cors({ origin: "*", ...opts });
  const expose = opts.exposeHeaders.join(",");
  return async (c, next) => {
    if (c.req.method === "OPTIONS") return preflight(c, next);
    await next();
    try {
      c.res.headers.set("access-control-allow-origin", "*");
      c.res.headers.set("access-control-expose-headers", expose);
    } catch {
      // Immutable headers (a response passed through from a fetch): set them on a copy.
      const res = new Response(c.res.body, c.res);
      res.headers.set("access-control-allow-origin", "*");
      res.headers.set("access-control-expose-headers", expose);
      c.res = undefined;
      c.res = res;
    }
  };
}
