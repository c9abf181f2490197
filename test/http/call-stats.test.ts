import { env } from "cloudflare:workers";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { forecastBody } from "../fixtures/bmkg";
import { call, seedUserWithKey } from "../helpers";

/**
 * The development-only cost headers (src/http/d1-stats.ts) that docs/performance.md's "Production
 * limits" table is measured with: D1 statements and rows, KV operations, Durable Object requests and
 * outbound subrequests of one call.
 */
let key: string;
beforeEach(async () => {
  // A new account per test: no lease from an earlier call. A metered plan: its calls are admitted by the account object.
  key = (await seedUserWithKey({ plan: "free" })).secret;
});
afterEach(() => {
  vi.restoreAllMocks();
  Object.assign(env, { D1_STATS: "off" });
});

const counts = (res: Response) =>
  Object.fromEntries(["x-d1-queries", "x-d1-rows-read", "x-kv-ops", "x-do-requests", "x-subrequests"].map((h) => [h, res.headers.get(h)]));

it("off by default: no cost headers", async () => {
  const res = await call("/api/v1/wilayah/32", { key });
  expect(res.status).toBe(200);
  expect(counts(res)).toEqual({ "x-d1-queries": null, "x-d1-rows-read": null, "x-kv-ops": null, "x-do-requests": null, "x-subrequests": null });
});

it("counts a data call's D1 statements and its admission by the account object; a call under the lease asks nothing", async () => {
  Object.assign(env, { D1_STATS: "on" });
  const first = counts(await call("/api/v1/wilayah/search?q=bandung&per_page=1", { key }));
  expect(Number(first["x-d1-queries"])).toBeGreaterThan(0);
  expect(Number(first["x-d1-rows-read"])).toBeGreaterThan(0);
  // No lease yet: the isolate asks the account object (initialising it by name first, then the call).
  expect(Number(first["x-do-requests"])).toBeGreaterThanOrEqual(1);
  expect(first["x-subrequests"]).toBe("0");
  const again = counts(await call("/api/v1/wilayah/search?q=bandung&per_page=1", { key }));
  expect(again["x-do-requests"]).toBe("0");
});

it("counts the outbound fetch and the KV reads and writes of an upstream call (BMKG, intercepted)", async () => {
  Object.assign(env, { D1_STATS: "on" });
  const spy = vi
    .spyOn(globalThis, "fetch")
    .mockImplementation(async (input) => Response.json(forecastBody(new URL(String(input instanceof Request ? input.url : input)).searchParams.get("adm4")!)));
  // A region no other test file asks the weather of (the files share one Worker and its caches).
  const res = await call("/api/v1/cuaca?adm4=3578041001", { key });
  expect(res.status).toBe(200);
  expect(spy).toHaveBeenCalledTimes(1);
  const c = counts(res);
  expect(c["x-subrequests"]).toBe("1");
  // The cached copy looked up (none), then stored.
  expect(Number(c["x-kv-ops"])).toBeGreaterThanOrEqual(2);
});
