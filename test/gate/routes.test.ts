/**
 * The route table: every route the app serves, read from the router itself (app.routes, the table
 * Hono matches requests against), must declare its caller policy (src/gate). A route added without
 * one fails here, and the gate refuses it at run time (500) rather than let it skip the gate.
 */
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { routePolicies } from "../../src/gate";
import { call, seedUserWithKey } from "../helpers";

const routes = routePolicies(app);

describe("the route table", () => {
  it("every route the router serves declares who may call it", () => {
    const undeclared = routes.filter((r) => !r.policy).map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
    // the table is the router's: the data API, MCP, the portal and the site are all in it
    expect(routes.length).toBeGreaterThan(150);
    for (const path of [
      "/api/v1/wilayah/provinsi",
      "/mcp",
      "/portal/keys",
      "/tiles/:z/:x/:y{[^/]+\\.mvt}",
      "/billing/tripay/webhook",
      "/wilayah/changes.atom",
      "/ogc/collections/:collectionId/items",
    ])
      expect(
        routes.some((r) => r.path === path),
        path,
      ).toBe(true);
  });

  it("a policy names only callers the gate knows, and key routes say what they are", () => {
    const known = ["anyone", "secretKey", "publishableKey", "session", "admin", "portalSession", "portalVisitor", "siteMap", "tripay"];
    for (const r of routes) {
      for (const k of r.policy?.callers ?? []) expect(known, `${r.method} ${r.path}`).toContain(k);
      if (r.policy?.callers.some((k) => k === "secretKey" || k === "publishableKey")) expect(r.policy.tag, `${r.method} ${r.path}`).toBeTruthy();
      if (r.policy?.meter === "call" || r.policy?.meter === "tile" || r.policy?.meter === "range")
        expect(r.policy.endpoint, `${r.method} ${r.path}`).toBeTruthy();
    }
  });
});

describe("a key in the query string (keyParam)", () => {
  it("is read only on a route that declares it (the GIS routes' api_key); elsewhere it is no credential", async () => {
    const { secret } = await seedUserWithKey();
    const declaring = routes.filter((r) => r.policy?.keyParam).map((r) => r.path);
    expect(declaring).toEqual(
      expect.arrayContaining(["/ogc/collections", "/ogc/collections/:collectionId/items", "/api/v1/wilayah/export/:level{[^/]+\\.fgb}"]),
    );
    expect(
      declaring.every((path) => path.startsWith("/ogc") || path.endsWith(".fgb}")),
      declaring.join(", "),
    ).toBe(true);
    expect((await call(`/ogc/collections?api_key=${secret}`)).status).toBe(200);
    expect((await call("/ogc/collections")).status).toBe(401);
    expect((await call("/ogc/collections?api_key=wk_live_nope")).status).toBe(401);
    // a data route never reads a key from its URL
    expect((await call(`/api/v1/wilayah/provinsi?api_key=${secret}`)).status).toBe(401);
    expect((await call(`/api/v1/wilayah/provinsi?key=${secret}`)).status).toBe(401);
  });
});
