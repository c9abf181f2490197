/**
 * CORS for the data API: any origin, no credentials. Preflights are Hono's `cors`. On every other
 * request Hono's `cors` sets its headers on a response made before the handler runs, and Hono then
 * rebuilds the handler's response to carry them over (a new Response and a header copy on every
 * call); here the same headers are set on the final response instead. That response is always one
 * the app made (`c.body`/`c.json`, the error and not-found handlers), so its headers are mutable.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

export function publicCors(opts: { allowMethods: string[]; allowHeaders: string[]; exposeHeaders: string[]; maxAge: number }): MiddlewareHandler {
  const preflight = cors({ origin: "*", ...opts });
  const expose = opts.exposeHeaders.join(",");
  return async (c, next) => {
    if (c.req.method === "OPTIONS") return preflight(c, next);
    await next();
    c.res.headers.set("access-control-allow-origin", "*");
    c.res.headers.set("access-control-expose-headers", expose);
  };
}
