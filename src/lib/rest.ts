import type { Hono } from "hono";
import type { DataEndpoint } from "./data-endpoint";
import { runEndpoint } from "./run-endpoint";
import type { AppEnv } from "./types";

/** REST routes for declared data endpoints: query + path params in, the endpoint's JSON out. */
export function mountDataEndpoints(app: Hono<AppEnv>, endpoints: readonly DataEndpoint[]): void {
  for (const ep of endpoints) {
    app.get(ep.path, async (c) => {
      const raw = { ...c.req.query(), ...c.req.param() };
      const result = await runEndpoint(ep, raw, {
        env: c.env,
        principal: c.get("principal"),
        waitUntil: (p) => c.executionCtx.waitUntil(p),
      });
      return c.body(result.json, 200, {
        "content-type": "application/json; charset=utf-8",
        "x-data-version": ep.version,
        "x-cache": result.cache,
        // Same for every caller, but only after the key check: let browsers keep it, not shared caches.
        "cache-control": "private, max-age=300",
      });
    });
  }
}
