/**
 * The route table: every route the app serves, read from the router itself (app.routes, the table
 * Hono matches requests against), must declare its caller policy (src/gate). A route added without
 * one fails here, and the gate refuses it at run time (500) rather than let it skip the gate.
 */
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { routePolicies } from "../../src/gate";

describe("the route table", () => {
  const routes = routePolicies(app);

  it("every route the router serves declares who may call it", () => {
    const undeclared = routes.filter((r) => !r.policy).map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
    // the table is the router's: the data API, MCP, the portal and the site are all in it
    expect(routes.length).toBeGreaterThan(150);
    for (const path of ["/api/v1/wilayah/provinsi", "/mcp", "/portal/keys", "/tiles/:z/:x/:y{[^/]+\\.mvt}", "/billing/tripay/webhook", "/wilayah/changes.atom"])
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
      if (r.policy?.meter === "call" || r.policy?.meter === "tile") expect(r.policy.endpoint, `${r.method} ${r.path}`).toBeTruthy();
    }
  });
});
