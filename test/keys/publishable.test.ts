import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, createKey, expectError, freshMinuteWindow, json, MINUTE_WINDOW_TIMEOUT_MS, mcpTool, setPlan, verifiedDeveloper } from "../helpers";

const SHOP = "https://shop.example.com";

async function createPublishable(token: string, body: Record<string, unknown> = {}) {
  const res = await call("/user/keys", { method: "POST", token, json: { name: "web page", kind: "publishable", allowed_origins: [SHOP], ...body } });
  if (res.status !== 201) throw new Error(`create publishable key: ${res.status} ${await res.text()}`);
  return (await json(res)).data as { id: string; key: string; allowed_origins: string[]; rate_limit_per_minute: number };
}

/** A data call from a browser page at `origin` (undefined: no Origin header). */
const fromPage = (key: string, origin: string | undefined, path = "/api/v1/wilayah/provinsi/32", headers: Record<string, string> = {}) =>
  call(path, { key, headers: { ...(origin ? { origin } : {}), ...headers } });

describe("publishable keys: creation", () => {
  it("POST /user/keys with kind publishable: a wk_pub_ secret, its origins and its own rate (default 30, within the free plan's)", async () => {
    const dev = await verifiedDeveloper();
    const res = await call("/user/keys", {
      method: "POST",
      token: dev.token,
      json: { name: "shop", kind: "publishable", allowed_origins: [SHOP, "https://*.example.org", SHOP] },
    });
    expect(res.status).toBe(201);
    const k = (await json(res)).data;
    expect(k.key).toMatch(/^wk_pub_[A-Za-z0-9_-]{32}$/);
    expect(k).toMatchObject({
      kind: "publishable",
      prefix: k.key.slice(0, 11),
      allowed_origins: [SHOP, "https://*.example.org"],
      rate_limit_per_minute: 30,
      expires_at: null,
      last_used_origin: null,
    });
    const list = (await json(await call("/user/keys", { token: dev.token }))).data;
    expect(list[0]).toMatchObject({ id: k.id, kind: "publishable", allowed_origins: [SHOP, "https://*.example.org"] });
    // A secret key is unchanged: wk_live_, no origins, no rate of its own.
    const secret = (await json(await call("/user/keys", { method: "POST", token: dev.token, json: { name: "server" } }))).data;
    expect(secret).toMatchObject({ kind: "secret", allowed_origins: null, rate_limit_per_minute: null });
    expect(secret.key).toMatch(/^wk_live_/);
  });

  it("origins are validated strictly (scheme://host[:port], lower case, no path), and the kind's fields must fit it: 400 VALIDATION_ERROR", async () => {
    const dev = await verifiedDeveloper();
    const bad = [
      "shop.example.com",
      "*.example.com",
      "https://shop.example.com/",
      "https://shop.example.com/cart",
      "https://Shop.example.com",
      "https://shop.example.com:443",
      "https://shop.example.com:99999",
      "https://*.com",
      "https://*",
      "ftp://shop.example.com",
      "https://user@shop.example.com",
      " https://shop.example.com",
      "https://shop.example.com?x=1",
    ];
    for (const origin of bad) {
      const e = await expectError(
        await call("/user/keys", { method: "POST", token: dev.token, json: { name: "k", kind: "publishable", allowed_origins: [origin] } }),
        400,
        "VALIDATION_ERROR",
      );
      expect(e.details?.[0].path, origin).toBe("allowed_origins.0");
    }
    const refused = [
      { name: "k", kind: "publishable" }, // no origins
      { name: "k", kind: "publishable", allowed_origins: [] },
      { name: "k", allowed_origins: [SHOP] }, // a secret key with origins
      { name: "k", rate_limit_per_minute: 10 }, // a secret key with its own rate
      { name: "k", kind: "publishable", allowed_origins: [SHOP], rate_limit_per_minute: 17 }, // not a tier
      { name: "k", kind: "publishable", allowed_origins: [SHOP], rate_limit_per_minute: 60 }, // above the free plan's 30
      { name: "k", kind: "browser" },
      { name: "k", expires_at: "tomorrow" },
      { name: "k", expires_at: new Date(Date.now() - 1000).toISOString() }, // in the past
    ];
    for (const body of refused)
      await expectError(await call("/user/keys", { method: "POST", token: dev.token, json: body }), 400, "VALIDATION_ERROR").catch((e) => {
        throw new Error(`${JSON.stringify(body)}: ${e.message}`);
      });
    // http and ports are fine (a page in development), and a plan with a higher rate allows a higher tier.
    await setPlan(dev.data.id, "pro");
    const k = await createPublishable(dev.token, { allowed_origins: ["http://localhost:5173"], rate_limit_per_minute: 600 });
    expect(k.rate_limit_per_minute).toBe(600);
  });
});

describe("publishable keys: origins", () => {
  it("an allowed origin is answered, with CORS for that origin only; another origin, none or `null` is 403 ORIGIN_NOT_ALLOWED without CORS", async () => {
    const dev = await verifiedDeveloper();
    const k = await createPublishable(dev.token);

    const ok = await fromPage(k.key, SHOP);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(ok.headers.get("vary")?.toLowerCase()).toContain("origin");

    for (const origin of ["https://evil.example.com", "http://shop.example.com", "https://shop.example.com:8443", "null"]) {
      const res = await fromPage(k.key, origin);
      await expectError(res, 403, "ORIGIN_NOT_ALLOWED");
      expect(res.headers.get("access-control-allow-origin"), origin).toBeNull();
    }
    const none = await fromPage(k.key, undefined);
    const e = await expectError(none, 403, "ORIGIN_NOT_ALLOWED");
    expect(e.message).toContain("no Origin or Referer");

    // No Origin but a Referer from an allowed page: its origin counts; one from elsewhere does not.
    expect((await fromPage(k.key, undefined, undefined, { referer: `${SHOP}/checkout?step=2` })).status).toBe(200);
    await expectError(await fromPage(k.key, undefined, undefined, { referer: "https://elsewhere.test/page" }), 403, "ORIGIN_NOT_ALLOWED");

    // A secret key is unchanged: any origin, CORS for everyone.
    const secret = await createKey(dev.token);
    const s = await fromPage(secret.key, "https://anywhere.test");
    expect(s.status).toBe(200);
    expect(s.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("a wildcard origin allows every subdomain (any depth) with the same scheme and port, not the domain itself or look-alikes", async () => {
    const dev = await verifiedDeveloper();
    const k = await createPublishable(dev.token, { allowed_origins: ["https://*.example.com", "http://*.dev.test:8080"] });
    for (const origin of ["https://shop.example.com", "https://a.b.example.com", "http://x.dev.test:8080"])
      expect((await fromPage(k.key, origin)).status, origin).toBe(200);
    for (const origin of [
      "https://example.com",
      "https://evil-example.com",
      "https://example.com.evil.test",
      "http://shop.example.com",
      "http://x.dev.test",
      "https://x.dev.test:8080",
    ])
      await expectError(await fromPage(k.key, origin), 403, "ORIGIN_NOT_ALLOWED").catch((e) => {
        throw new Error(`${origin}: ${e.message}`);
      });
  });

  it("a preflight (which carries no key) is answered for any origin; the request itself is then checked", async () => {
    const res = await call("/api/v1/wilayah/provinsi", {
      method: "OPTIONS",
      headers: { origin: "https://evil.test", "access-control-request-method": "GET", "access-control-request-headers": "x-api-key" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toContain("x-api-key");
  });
});

describe("publishable keys: what they may call", () => {
  it("the read-only data endpoints, REST: yes; exports, bulk jobs and MCP: 403 SECRET_KEY_REQUIRED; account routes never take a key", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "pro"); // so exports would be allowed to a secret key
    const k = await createPublishable(dev.token);
    for (const path of [
      "/api/v1/wilayah/provinsi",
      "/api/v1/wilayah/search?q=bandung",
      "/api/v1/wilayah/32.73",
      "/api/v1/wilayah/address?q=jl%20asia%20afrika%20bandung",
    ])
      expect((await fromPage(k.key, SHOP, path)).status, path).toBe(200);

    for (const path of ["/api/v1/wilayah/export/manifest", "/api/v1/wilayah/export?level=provinsi&format=csv", "/api/v1/jobs"]) {
      const e = await expectError(await fromPage(k.key, SHOP, path), 403, "SECRET_KEY_REQUIRED");
      expect(e.message).toContain("secret key");
    }
    await expectError(
      await call("/api/v1/jobs", { method: "POST", key: k.key, headers: { origin: SHOP, "content-type": "text/csv" }, body: "q\nbandung\n" }),
      403,
      "SECRET_KEY_REQUIRED",
    );
    // MCP refuses browser origins other than its own host before any key is read; a key allowing that one gets no further.
    const own = await createPublishable(dev.token, { allowed_origins: ["https://api.wilayah.test"] });
    const mcp = await call("/mcp", {
      method: "POST",
      key: own.key,
      headers: {
        origin: "https://api.wilayah.test",
        host: "api.wilayah.test",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    await expectError(mcp, 403, "SECRET_KEY_REQUIRED");
    // Account, billing and webhook routes take a session token only: a key, of any kind, is no way in.
    for (const path of ["/user/keys", "/user/usage", "/user/webhooks", "/billing/status"])
      await expectError(await fromPage(k.key, SHOP, path), 401, "MISSING_TOKEN");
    // The same account's secret key still reaches the MCP tools.
    expect((await mcpTool((await createKey(dev.token)).key, "wilayah_provinsi", {})).isError).toBeFalsy();
  });
});

describe("publishable keys: their own rate and the hot path", () => {
  afterEach(() => vi.restoreAllMocks());

  it(
    "a key's own per-minute rate: past it 429 RATE_LIMITED, and the account's other keys go on",
    async () => {
      await freshMinuteWindow();
      const dev = await verifiedDeveloper();
      const k = await createPublishable(dev.token, { rate_limit_per_minute: 10 });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await fromPage(k.key, SHOP, `/api/v1/wilayah/provinsi?page=${(i % 3) + 1}`)).status);
      expect(statuses.filter((s) => s === 200).length).toBe(10);
      const limited = await fromPage(k.key, SHOP);
      await expectError(limited, 429, "RATE_LIMITED");
      expect(limited.headers.get("retry-after")).toBe("60");
      // The account's plan rate (30 a minute on free) was spent only by the 10 served calls.
      const other = await createPublishable(dev.token, { rate_limit_per_minute: 10 });
      expect((await fromPage(other.key, SHOP)).status).toBe(200);
      expect((await call("/api/v1/wilayah/provinsi/32", { key: (await createKey(dev.token)).key })).status).toBe(200);
    },
    MINUTE_WINDOW_TIMEOUT_MS,
  );

  it("its check reads no D1 once cached (written to KV at creation)", async () => {
    const dev = await verifiedDeveloper();
    const k = await createPublishable(dev.token);
    const prepare = vi.spyOn(env.DB, "prepare");
    expect((await fromPage(k.key, SHOP)).status).toBe(200);
    expect((await fromPage(k.key, SHOP, "/api/v1/wilayah/provinsi/33")).status).toBe(200);
    // Reads only: the account objects' periodic flush (any account's, earlier tests' too) writes keys' last use through the same binding.
    expect(prepare.mock.calls.filter(([sql]) => /^\s*select\b/i.test(String(sql)) && String(sql).includes("api_keys"))).toEqual([]);
  });
});
