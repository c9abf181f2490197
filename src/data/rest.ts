import { Hono, type MiddlewareHandler } from "hono";
import { describeRoute } from "hono-openapi";
import type { BaseEnv } from "../http/context";
import { lazyOperation } from "../http/docs";
import { queryValues, typedQuery } from "../http/query";
import { ApiError } from "../lib/errors";
import type { DataEndpoint } from "./endpoint";
import { requireApiKey } from "./guard";
import { endpointOperation } from "./openapi";
import { type Admit, serveDataCall } from "./run";

/**
 * REST routes for declared data endpoints (mounted at /api/v1): query + path params in, the
 * endpoint's JSON out. The API-key guard runs first (per route, so unknown paths are 404 before any
 * key check) and puts the call's context on the request; then `admit` (rate, quota, metering); a
 * call that fails is released, so only successful calls count.
 */
export function dataRoutes(endpoints: readonly DataEndpoint[], admit: Admit): Hono<BaseEnv> {
  const app = new Hono<BaseEnv>();
  for (const ep of endpoints) {
    app.get(ep.path, describeRoute(lazyOperation(() => endpointOperation(ep))), refuseHead, requireApiKey, async (c) => {
      const raw = { ...typedQuery(ep.input, queryValues(c.req.queries())), ...c.req.param() };
      const result = await serveDataCall(ep, raw, c.get("call"), admit);
      return c.body(result.json, 200, {
        "content-type": "application/json; charset=utf-8",
        "x-data-version": ep.version,
        "x-cache": result.cache,
        // Same for every caller, but only after the key check: let browsers keep it, not shared caches.
        // Answers never cached (weather: fresh upstream data; NIK: personal) are not kept anywhere.
        "cache-control": ep.cacheSeconds > 0 ? "private, max-age=300" : "private, no-store",
      });
    });
  }
  return app;
}

/**
 * Hono answers HEAD with the GET route; a data call would then be served (and metered) for a body
 * nobody receives. HEAD is refused instead, before the key is even looked at.
 */
const refuseHead: MiddlewareHandler<BaseEnv> = async (c, next) => {
  if (c.req.method === "HEAD") throw new ApiError("METHOD_NOT_ALLOWED", "HEAD is not served on data endpoints; use GET.", { headers: { allow: "GET" } });
  await next();
};
