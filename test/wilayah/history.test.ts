/**
 * Region history through HTTP and MCP: editions, a code's history, changes between editions, by-id
 * of a code of any edition, search by former names, NIKs issued under an earlier edition's code.
 * Every code of every edition is checked node-side (test/node/history.test.ts).
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, createKey, expectError, json, mcpTool, seedUserWithKey, setPlan, verifiedDeveloper, waitForTotal } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});
afterEach(() => vi.restoreAllMocks());

const get = (path: string) => call(`/api/v1/wilayah${path}`, { key });

describe("GET /wilayah/editions", () => {
  it("lists the six editions with their regulation and counts (seed/sources/README.md), the last current", async () => {
    const body = await json(await get("/editions"));
    expect(body.data.map((e: { id: string }) => e.id)).toEqual(["2015", "2017", "2020", "2022", "2022b", "2025"]);
    expect(body.data[0]).toEqual({
      id: "2015",
      regulation: "Permendagri 56/2015",
      counts: { provinsi: 34, kabupaten: 514, kecamatan: 7160, kelurahan: 83184 },
      current: false,
    });
    expect(body.data[5]).toMatchObject({ id: "2025", counts: { provinsi: 38, kabupaten: 514, kecamatan: 7285, kelurahan: 83762 }, current: true });
    expect(body.data.filter((e: { current: boolean }) => e.current)).toHaveLength(1);
  });
});

describe("GET /wilayah/:code/history", () => {
  it("Merauke 91.01 is retired, succeeded by 93.01 (UU 14/2022), recoded in 2022b", async () => {
    const h = (await json(await get("/9101/history"))).data;
    expect(h).toMatchObject({ code: "91.01", level: "kabupaten", status: "retired", name: "KAB. MERAUKE" });
    expect(h.editions.map((e: { edition: string }) => e.edition)).toEqual(["2015", "2017", "2020", "2022"]);
    expect(h.successors).toEqual([{ id: "93.01", name: "Kabupaten Merauke", level: "kabupaten", basis: "curated", confidence: 1, via: [] }]);
    expect(h.within).toEqual({ id: "93.01", name: "Kabupaten Merauke", level: "kabupaten" });
    expect(h.changes).toEqual([
      expect.objectContaining({
        edition: "2022b",
        regulation: "Kepmendagri 100.1.1-6117/2022",
        change: "recoded",
        code_before: "91.01",
        code_after: "93.01",
        basis: "curated",
      }),
    ]);
    const now = (await json(await get("/93.01/history"))).data;
    expect(now).toMatchObject({ status: "current", successors: [], within: null, name: "Kabupaten Merauke" });
    expect(now.predecessors).toEqual([{ code: "91.01", name: "KAB. MERAUKE", last_edition: "2022", basis: "curated", confidence: 1 }]);
  });

  it("Kota Sorong 92.71 -> 96.71 (UU 29/2022); a village chained through two moves", async () => {
    const h = (await json(await get("/92.71/history"))).data;
    expect(h.successors.map((s: { id: string }) => s.id)).toEqual(["96.71"]);
    expect(h.editions.at(-1)).toEqual({ edition: "2022b", name: "KOTA SORONG" });
    const malamso = (await json(await get("/92.71.05.1008/history"))).data;
    expect(malamso.successors).toEqual([
      { id: "96.71.09.1003", name: expect.any(String), level: "kelurahan", basis: "same_name_elsewhere", confidence: 0.81, via: ["92.71.09.1005"] },
    ]);
    // its changes follow the chain: moved within Kota Sorong in 2017, with Kota Sorong to Papua Barat Daya in 2025
    expect(malamso.changes.map((c: { edition: string; code_before: string; code_after: string }) => [c.edition, c.code_before, c.code_after])).toEqual([
      ["2017", "92.71.05.1008", "92.71.09.1005"],
      ["2025", "92.71.09.1005", "96.71.09.1003"],
    ]);
  });

  it("a current code in every edition answers all six; a retired code of the region tables in no edition answers from its row", async () => {
    const cihapit = (await json(await get("/32.73.09.1001/history"))).data;
    expect(cihapit).toMatchObject({ status: "current", predecessors: [], changes: [] });
    expect(cihapit.editions).toHaveLength(6);
    // idn-area-data 3.1.2 lists 96.01.05.1006 Warmon, which no edition published; its namesake is current
    const warmon = (await json(await get("/96.01.05.1006/history"))).data;
    expect(warmon).toMatchObject({ status: "retired", editions: [], name: "Warmon" });
    expect(warmon.successors).toEqual([expect.objectContaining({ id: "96.01.05.1007", basis: "same_name" })]);
  });

  it("404 only for a code that never existed", async () => {
    await expectError(await get("/32.73.99/history"), 404, "NOT_FOUND");
    await expectError(await get("/abc/history"), 404, "NOT_FOUND");
  });
});

describe("GET /wilayah/changes", () => {
  it("defaults to the previous edition -> the current one, paged in order, filtered by level and kind", async () => {
    const all = await json(await get("/changes?per_page=5"));
    expect(all.meta).toMatchObject({ from: "2022b", to: "2025", page: 1, per_page: 5 });
    expect(all.meta.total).toBeGreaterThan(1000);
    expect(all.data.every((c: { edition: string }) => c.edition === "2025")).toBe(true);
    const kab = await json(await get("/changes?from=2022b&to=2025&level=kabupaten&change=recoded&per_page=100"));
    expect(kab.data.map((c: { code_before: string }) => c.code_before)).toEqual(["92.01", "92.04", "92.05", "92.09", "92.10", "92.71"]);
    expect(kab.data.find((c: { code_before: string }) => c.code_before === "92.71")).toMatchObject({
      code_after: "96.71",
      name_before: "KOTA SORONG",
      level: "kabupaten",
    });
    const wide = await json(await get("/changes?from=2015&level=provinsi"));
    expect(wide.meta).toMatchObject({ from: "2015", to: "2025" });
    expect(wide.data.filter((c: { change: string }) => c.change === "created").map((c: { code_after: string }) => c.code_after)).toEqual([
      "93",
      "94",
      "95",
      "96",
    ]);
  });

  it("an unknown edition is 400 with the list; from must come before to", async () => {
    const err = await expectError(await get("/changes?from=2019"), 400, "INVALID_QUERY");
    expect(err.message).toContain("2015, 2017, 2020, 2022, 2022b, 2025");
    await expectError(await get("/changes?from=2025&to=2022"), 400, "INVALID_QUERY");
    await expectError(await get("/changes?change=moved"), 400, "INVALID_QUERY");
  });
});

describe("POST /wilayah/convert", () => {
  const post = (body: unknown, k = key) => call("/api/v1/wilayah/convert", { key: k, method: "POST", json: body });

  it("converts codes of any edition and level, in order: status, current, successors", async () => {
    const body = await json(await post({ codes: ["91.01", "9271", "91.01.01.2001", "3273", "32.73.99", "nope", "91.08.01.2034"] }));
    expect(body.data.map((d: { code: string; status: string; current: { id: string } | null }) => [d.code, d.status, d.current?.id ?? null])).toEqual([
      ["91.01", "retired", "93.01"],
      ["9271", "retired", "96.71"],
      ["91.01.01.2001", "retired", "93.01.01.2001"],
      ["3273", "current", "32.73"],
      ["32.73.99", "unknown", null],
      ["nope", "unknown", null],
      ["91.08.01.2034", "retired", null], // Kogekotu: two namesakes nothing tells apart, both listed
    ]);
    expect(body.data[0]).toEqual({
      code: "91.01",
      id: "91.01",
      status: "retired",
      current: { id: "93.01", name: "Kabupaten Merauke", level: "kabupaten" },
      successors: [{ id: "93.01", name: "Kabupaten Merauke", level: "kabupaten", basis: "curated", confidence: 1 }],
    });
    expect(body.data[6].successors).toHaveLength(2);
    await expectError(await post({ codes: [] }), 400, "VALIDATION_ERROR");
    await expectError(await post({ codes: Array.from({ length: 1001 }, () => "32") }), 400, "VALIDATION_ERROR");
    await expectError(await post({ codes: "91.01" }), 400, "VALIDATION_ERROR");
  });

  it("reads D1 in one statement for 1,000 codes, not one per code", async () => {
    const codes = Array.from({ length: 1000 }, (_, i) => `91.01.${String((i % 20) + 1).padStart(2, "0")}.${2001 + i}`);
    await post({ codes: ["32"] }); // the key is looked up and cached
    const prepare = vi.spyOn(env.DB, "prepare");
    const batch = vi.spyOn(env.DB, "batch");
    const res = await post({ codes });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toHaveLength(1000);
    const regional = prepare.mock.calls.map(([q]) => String(q)).filter((q) => /wilayah_|json_each/.test(q));
    expect(regional).toHaveLength(1);
    expect(regional[0]).toContain("json_each");
    // No batch of region reads (the account object's usage flush may write usage_daily meanwhile: not ours)
    expect(batch.mock.calls.filter(([statements]) => /wilayah_|json_each/.test(JSON.stringify(statements)))).toEqual([]);
  });

  it("counts each code as one call, and refuses a request the quota and credits cannot cover whole (402)", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES ('convert10', 'Convert test', 0, 10, 30, '[]', 53, 0)",
    ).run();
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "convert10");
    const k = await createKey(dev.token, "convert");
    await expectError(await post({ codes: Array.from({ length: 11 }, (_, i) => `32.${String(i + 1).padStart(2, "0")}`) }, k.key), 402, "QUOTA_EXCEEDED");
    expect((await post({ codes: ["91.01", "92.71", "32.73"] }, k.key)).status).toBe(200);
    const usage = await waitForTotal(dev.token, 3);
    expect(usage.by_endpoint).toEqual([{ endpoint: "/wilayah/convert", count: 3 }]);
    await expectError(await post({ codes: Array.from({ length: 8 }, () => "32") }, k.key), 402, "QUOTA_EXCEEDED");
    expect((await post({ codes: Array.from({ length: 7 }, () => "32") }, k.key)).status).toBe(200);
  });
});

describe("by id, a code of any edition", () => {
  it("answers Kota Sorong 92.71 as last published, is_active 0, replaced_by", async () => {
    const old = (await json(await get("/92.71"))).data;
    expect(old).toEqual({
      id: "92.71",
      code: "9271",
      name: "KOTA SORONG",
      alt_name: "SORONG",
      lat: null,
      lng: null,
      is_active: 0,
      provinsi_id: "92",
      type: "kota",
      // the kabupaten record's fields, unknown for a code of an earlier edition
      area_km2: null,
      population: null,
      density_per_km2: null,
      level: "kabupaten",
      replaced_by: ["96.71"],
      bps_codes: [], // BPS codes lead to current regions only
    });
    expect((await json(await get("/kabupaten/9271"))).data).toMatchObject({ id: "92.71", replaced_by: ["96.71"] });
    await expectError(await get("/kecamatan/92.71"), 404, "NOT_FOUND");
    const village = (await json(await get("/kelurahan/91.01.01.2001"))).data;
    expect(village).toMatchObject({ kecamatan_id: "91.01.01", postal_code: null, is_active: 0, replaced_by: ["93.01.01.2001"] });
    // retired rows of the region tables say what replaced them too; current rows carry no replaced_by
    expect((await json(await get("/96.01.05.1006"))).data).toMatchObject({ is_active: 0, replaced_by: ["96.01.05.1007"] });
    expect((await json(await get("/96.71"))).data.replaced_by).toBeUndefined();
  });
});

describe("search by former names", () => {
  it("finds a region by a name of an earlier edition, marked former; current names unmarked", async () => {
    const body = await json(await get("/search?q=mamuju%20utara&per_page=5"));
    expect(body.data[0]).toMatchObject({ id: "76.01", name: "Kabupaten Pasangkayu", match: { type: "exact", former: true } });
    const now = await json(await get("/search?q=pasangkayu&per_page=1"));
    expect(now.data[0]).toMatchObject({ id: "76.01", match: { former: false } });
    const makassar = await json(await get("/search?q=ujung%20pandang&per_page=1"));
    expect(makassar.data[0]).toMatchObject({ id: "73.71", match: { type: "exact", former: true } });
  });
});

describe("NIK issued under an earlier edition's code", () => {
  it("answers the current region, as_issued and recoded (issue 23: 9101014501900001)", async () => {
    const body = await json(await get("/nik/9101014501900001"));
    expect(body.data).toEqual({
      region_code: "91.01.01",
      provinsi: { id: "93", name: "Papua Selatan" },
      kabupaten: { id: "93.01", name: "Kabupaten Merauke" },
      kecamatan: { id: "93.01.01", name: "Merauke" },
      birth_date: "1990-01-05",
      sex: "female",
      recoded: true,
      as_issued: {
        edition: "2022",
        provinsi: { id: "91", name: "PAPUA" },
        kabupaten: { id: "91.01", name: "KAB. MERAUKE" },
        kecamatan: { id: "91.01.01", name: "Merauke" },
      },
    });
    const current = await json(await get("/nik/3273094512900001"));
    expect(current.data).toMatchObject({ recoded: false, as_issued: null, kecamatan: { id: "32.73.09" } });
  });

  it("when the kecamatan code is unknown under a retired kabupaten, the kabupaten is still resolved", async () => {
    const body = await json(await get("/nik/9271991205850002"));
    expect(body.data).toMatchObject({
      provinsi: { id: "96" },
      kabupaten: { id: "96.71", name: "Kota Sorong" },
      kecamatan: null,
      recoded: true,
      as_issued: { edition: "2022b", kabupaten: { id: "92.71", name: "KOTA SORONG" }, kecamatan: null },
    });
  });
});

describe("MCP tools (the same declarations)", () => {
  const tool = (name: string, args: Record<string, unknown>) => mcpTool(key, name, args);

  it("wilayah_editions, wilayah_history, wilayah_changes and wilayah_convert answer what REST answers", async () => {
    expect((await tool("wilayah_editions", {})).structuredContent).toEqual(await json(await get("/editions")));
    expect((await tool("wilayah_history", { code: "92.71" })).structuredContent).toEqual(await json(await get("/92.71/history")));
    expect((await tool("wilayah_changes", { level: "kabupaten", per_page: 3 })).structuredContent).toEqual(
      await json(await get("/changes?level=kabupaten&per_page=3")),
    );
    const converted = await tool("wilayah_convert", { codes: ["9101", "92.71.05.1008"] });
    expect(converted.structuredContent.data.map((d: { current: { id: string } }) => d.current.id)).toEqual(["93.01", "96.71.09.1003"]);
    const missing = await tool("wilayah_history", { code: "32.73.99" });
    expect(missing.isError).toBe(true);
  });
});
