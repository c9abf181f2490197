/**
 * The request log (issue 54) through HTTP: a failed call found by the request id of its answer,
 * filters and paging, MCP and tile lines, another account's calls never visible; and its cost in
 * the account object's storage (one row written per line, a day dropped whole).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AccountObject } from "../../src/account/object";
import type { LoggedCall } from "../../src/account/request-log";
import { timeOrderedUuid } from "../../src/lib/crypto";
import { call, createKey, expectError, json, mcpTool, setPlan, verifiedDeveloper } from "../helpers";
import { uploadTilesSubset } from "../tiles-subset";

const requests = async (token: string, query = "") => {
  const res = await call(`/user/requests${query ? `?${query}` : ""}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return json<{ data: any[]; meta: { next_cursor: string | null; limit: number; kept_days: number } }>(res);
};

describe("the request log", () => {
  beforeAll(async () => {
    await uploadTilesSubset();
  });

  it("finds a failed call by the request id of its error answer, with its key's label, route, status, code, latency and IP", async () => {
    const dev = await verifiedDeveloper();
    const key = await createKey(dev.token, "backend");
    expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200);
    const failed = await call("/api/v1/wilayah/kabupaten/99.99", { key: key.key, ip: "203.0.113.7" });
    const error = await expectError(failed, 404, "NOT_FOUND");
    expect(error.message).toBeTruthy();
    const id = failed.headers.get("x-request-id") ?? "";
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/); // a UUID version 7: the id carries its time

    const found = await requests(dev.token, `request_id=${id}`);
    expect(found.data).toEqual([
      {
        request_id: id,
        at: expect.any(String),
        key: { id: key.id, name: "backend", prefix: key.key.slice(0, 12) },
        surface: "rest",
        method: "GET",
        route: "/wilayah/kabupaten/:id",
        status: 404,
        error_code: "NOT_FOUND",
        latency_ms: expect.any(Number),
        data_version: null,
        ip: "203.0.113.7",
        count: 1,
      },
    ]);
    expect(found.meta).toEqual({ next_cursor: null, limit: 50, kept_days: 7 });
    // never the secret anywhere in the line
    expect(JSON.stringify(found)).not.toContain(key.key);
    const ok = (await requests(dev.token, "status=2xx")).data;
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({ route: "/wilayah/provinsi", status: 200, error_code: null, data_version: expect.stringMatching(/\S/) });
  });

  it("filters by key, status class or status, code, route, surface and time; pages by cursor, newest first", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "internal");
    const a = await createKey(dev.token, "a");
    const b = await createKey(dev.token, "b");
    for (let i = 0; i < 5; i++) expect((await call(`/api/v1/wilayah/provinsi?page=${i + 1}`, { key: a.key })).status).toBe(200);
    await expectError(await call("/api/v1/wilayah/search?q=a", { key: b.key }), 400, "INVALID_QUERY");
    await expectError(await call("/api/v1/wilayah/provinsi/99", { key: b.key }), 404, "NOT_FOUND");
    const mcp = await mcpTool(b.key, "wilayah_search", { q: "bandung" });
    expect(mcp.isError).toBeFalsy();

    const all = await requests(dev.token);
    expect(all.data).toHaveLength(8);
    const times = all.data.map((c) => Date.parse(c.at));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect((await requests(dev.token, `key=${a.id}`)).data.map((c) => c.key.name)).toEqual(["a", "a", "a", "a", "a"]);
    expect((await requests(dev.token, "status=4xx")).data.map((c) => c.status).sort()).toEqual([400, 404]);
    expect((await requests(dev.token, "status=404")).data.map((c) => c.error_code)).toEqual(["NOT_FOUND"]);
    expect((await requests(dev.token, "code=INVALID_QUERY")).data.map((c) => c.route)).toEqual(["/wilayah/search"]);
    expect((await requests(dev.token, "route=/wilayah/provinsi")).data).toHaveLength(5);
    const tool = (await requests(dev.token, "surface=mcp")).data;
    expect(tool).toEqual([
      expect.objectContaining({ surface: "mcp", method: "tools/call", route: "wilayah_search", status: 200, key: expect.objectContaining({ id: b.id }) }),
    ]);
    expect((await requests(dev.token, `from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).data).toEqual([]);
    expect((await requests(dev.token, `to=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`)).data).toEqual([]);

    // pages of 3: 3 + 3 + 2, the same calls as one page, none twice
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await requests(dev.token, `limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.data.map((c) => c.request_id));
      cursor = page.meta.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.data.map((c) => c.request_id));

    await expectError(await call("/user/requests?cursor=bm9wZQ", { token: dev.token }), 400, "INVALID_QUERY");
    await expectError(await call("/user/requests?status=6xx", { token: dev.token }), 400, "INVALID_QUERY");
    await expectError(await call("/user/requests?limit=500", { token: dev.token }), 400, "INVALID_QUERY");
    await expectError(await call("/user/requests?from=yesterday", { token: dev.token }), 400, "INVALID_QUERY");
    await expectError(await call("/user/requests"), 401, "MISSING_TOKEN");
  });

  it("never shows another account's calls, not even by their request id", async () => {
    const alice = await verifiedDeveloper();
    const bob = await verifiedDeveloper();
    const key = await createKey(alice.token);
    const res = await call("/api/v1/wilayah/kabupaten/99.99", { key: key.key });
    const id = res.headers.get("x-request-id") ?? "";
    expect((await requests(alice.token, `request_id=${id}`)).data).toHaveLength(1);
    expect((await requests(bob.token, `request_id=${id}`)).data).toEqual([]);
    expect((await requests(bob.token)).data).toEqual([]);
    expect((await requests(bob.token, `key=${key.id}`)).data).toEqual([]);
  });

  it("a GIS tool's page of OGC items is a line, as is one the OGC API refuses (404)", async () => {
    const dev = await verifiedDeveloper();
    const key = await createKey(dev.token);
    const page = await call("/ogc/collections/provinsi/items?limit=1", { key: key.key });
    expect(page.status).toBe(200);
    const missing = await call("/ogc/collections/provinsi/items/99", { key: key.key });
    expect(missing.status).toBe(404);
    const lines = (await requests(dev.token, "surface=rest")).data;
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ route: "/ogc/collections/{collectionId}/items", status: 200, request_id: page.headers.get("x-request-id") }),
        expect.objectContaining({ route: "/ogc/collections/{collectionId}/items/{featureId}", status: 404, error_code: "NOT_FOUND" }),
      ]),
    );
  });

  it("a call with an unknown key is no account's line; a refusal at the quota is one (402)", async () => {
    const dev = await verifiedDeveloper();
    await env.DB.prepare(
      "INSERT OR IGNORE INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES ('log2', 'Log test', 0, 2, 30, '[]', 61, 0)",
    ).run();
    await setPlan(dev.data.id, "log2");
    const key = await createKey(dev.token);
    await expectError(await call("/api/v1/wilayah/provinsi", { key: `${key.key.slice(0, -4)}zzzz` }), 401, "INVALID_API_KEY");
    expect((await requests(dev.token)).data).toEqual([]);
    for (let i = 0; i < 2; i++) expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200);
    const refused = await call("/api/v1/wilayah/provinsi", { key: key.key });
    await expectError(refused, 402, "QUOTA_EXCEEDED");
    const line = (await requests(dev.token, `request_id=${refused.headers.get("x-request-id")}`)).data;
    expect(line).toEqual([expect.objectContaining({ status: 402, error_code: "QUOTA_EXCEEDED" })]);
  });

  it("tiles are a line per map view (their count), a failed tile a line of its own; a job's creation is its line", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "internal");
    const key = await createKey(dev.token);
    const ip = "198.51.100.77";
    for (const path of ["/tiles/0/0/0.mvt", "/tiles/3/0/0.mvt", "/tiles/4/0/0.mvt"]) {
      const res = await call(path, { key: key.key, ip, headers: { origin: "https://maps.example.com" } });
      expect([200, 204]).toContain(res.status);
    }
    // A page's key from a page it does not allow: refused after its key is known, so the account's line (no IP: a publishable key's callers are the public)
    const created = await call("/user/keys", {
      method: "POST",
      token: dev.token,
      json: { name: "shop map", kind: "publishable", allowed_origins: ["https://shop.example.com"] },
    });
    const pub = (await json(created)).data;
    const bad = await call("/tiles/0/0/0.mvt", { key: pub.key, ip, headers: { origin: "https://elsewhere.example.net" } });
    await expectError(bad, 403, "ORIGIN_NOT_ALLOWED");
    const tiles = (await requests(dev.token, "surface=tiles")).data;
    expect(tiles).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ route: "/tiles/{z}/{x}/{y}.mvt", status: 200, count: 3, ip, key: expect.objectContaining({ id: key.id }) }),
        expect.objectContaining({ status: 403, error_code: "ORIGIN_NOT_ALLOWED", count: 1, ip: null, request_id: bad.headers.get("x-request-id") }),
      ]),
    );
    expect(tiles).toHaveLength(2);

    const job = await call("/api/v1/jobs?kind=convert", { method: "POST", key: key.key, body: "code\n32.73\n", headers: { "content-type": "text/csv" } });
    expect(job.status, await job.clone().text()).toBe(202);
    expect((await requests(dev.token, "surface=jobs")).data).toEqual([
      expect.objectContaining({ method: "POST", route: "/jobs", status: 202, request_id: job.headers.get("x-request-id") }),
    ]);
  });
});

describe("the request log's cost in the account object", () => {
  it("one row written per line, none for a line sent again; a day past keeping is dropped whole", async () => {
    const dev = await verifiedDeveloper();
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(dev.data.id));
    const now = Date.now();
    const line = (at: number): LoggedCall => ({
      at,
      request_id: timeOrderedUuid(at),
      key_id: "key_x",
      surface: "rest",
      method: "GET",
      route: "/wilayah/provinsi",
      status: 200,
      code: null,
      ms: 3,
      version: "kepmendagri-2025",
      ip: "203.0.113.1",
      count: 1,
    });
    await runInDurableObject(stub, async (object: AccountObject) => {
      const lines = Array.from({ length: 1000 }, (_, i) => line(now - 1000 + i));
      const before = await object.storageBytes();
      expect(await object.logRequests({ calls: lines, now })).toEqual({ written: 1000 });
      expect(await object.logRequests({ calls: lines.slice(0, 10), now })).toEqual({ written: 0 });
      const bytes = (await object.storageBytes()) - before;
      console.log(`request log: 1000 lines, ${bytes} bytes of storage (${(bytes / 1000).toFixed(0)} per line)`);
      expect(bytes / 1000).toBeLessThan(400);
      // eight days ago: past the free plan's seven, dropped at the next prune
      const old = line(now - 8 * 24 * 3600_000);
      expect(await object.logRequests({ calls: [old], now })).toEqual({ written: 1 });
      // never shown past the plan's keeping, even before its day is dropped
      const { calls, keptDays } = await object.requestLog({ from: 0, to: Number.MAX_SAFE_INTEGER, limit: 5 });
      expect(keptDays).toBe(7);
      expect(calls.map((c) => c.request_id)).toEqual(
        lines
          .slice(-5)
          .reverse()
          .map((c) => c.request_id),
      );
      expect((await object.requestLog({ from: 0, to: now - 7 * 24 * 3600_000, limit: 5 })).calls).toEqual([]);
      // the next prune (an hour on) drops its day: one DROP TABLE, not a write per row
      await object.logRequests({ calls: [], now: now + 3600_001 });
    });
    const tables = await runInDurableObject(stub, async (_object: AccountObject, state) =>
      state.storage.sql
        .exec("SELECT name FROM sqlite_master WHERE name LIKE 'request_log_%'")
        .toArray()
        .map((r) => String(r.name)),
    );
    expect(tables.length).toBeLessThanOrEqual(2); // today's (and yesterday's near midnight); the old day is gone

    // Why a table per day: deleting rows is billed as a write per row, dropping a table is not.
    const billed = await runInDurableObject(stub, async (_object: AccountObject, state) => {
      const sql = state.storage.sql;
      const fill = (t: string) => {
        sql.exec(`CREATE TABLE ${t} (at INTEGER NOT NULL, id TEXT NOT NULL, PRIMARY KEY (at, id)) WITHOUT ROWID`);
        sql.exec(`INSERT INTO ${t} SELECT value, 'r' || value FROM json_each(?)`, JSON.stringify(Array.from({ length: 1000 }, (_, i) => i)));
      };
      fill("scratch_delete");
      fill("scratch_drop");
      return { deleted: sql.exec("DELETE FROM scratch_delete").rowsWritten, dropped: sql.exec("DROP TABLE scratch_drop").rowsWritten };
    });
    console.log(`rows written: DELETE of 1000 rows ${billed.deleted}, DROP TABLE of 1000 rows ${billed.dropped}`);
    expect(billed.deleted).toBe(1000);
    expect(billed.dropped).toBeLessThan(10);
  });
});
