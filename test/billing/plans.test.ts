import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { call, json } from "../helpers";

describe("plans", () => {
  it("lists the public catalog with prices, quotas, rates and features", async () => {
    const { data } = await json(await call("/billing/plans"));
    expect(data.map((p: { id: string }) => p.id)).toEqual(["free", "starter", "pro", "business"]);
    expect(data[0]).toEqual({
      id: "free",
      name: "Free",
      price_idr: 0,
      monthly_quota: 1000,
      rate_limit_per_minute: 30,
      features: expect.any(Array),
      request_log_days: 7,
    });
    expect(data.map((p: { request_log_days: number }) => p.request_log_days)).toEqual([7, 14, 30, 90]);
    expect(data[2]).toMatchObject({ id: "pro", price_idr: 199000, monthly_quota: 500000, rate_limit_per_minute: 600 });
  });

  it("the plans (here and on the landing page) are read from D1 about once a minute per isolate, not per request", async () => {
    Object.assign(env, { D1_STATS: "on" });
    try {
      const queries = async (path: string) => {
        const res = await call(path);
        expect(res.status).toBe(200);
        await res.text();
        return Number(res.headers.get("x-d1-queries"));
      };
      const start = Date.now() + 120_000; // past whatever an earlier test left cached
      vi.useFakeTimers({ now: start, toFake: ["Date"] });
      expect(await queries("/billing/plans")).toBe(1);
      expect(await queries("/billing/plans")).toBe(0);
      expect(await queries("/")).toBe(0);
      vi.setSystemTime(start + 61_000);
      expect(await queries("/")).toBe(1);
      expect(await queries("/billing/plans")).toBe(0);
    } finally {
      vi.useRealTimers();
      Object.assign(env, { D1_STATS: "off" });
    }
  });
});
