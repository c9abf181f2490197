/**
 * BPS codes (issue 39) through HTTP and MCP: a BPS code of each level to today's region, the by-id
 * answers' bps_codes, /convert from bps, search by a BPS code. Spot checks from
 * seed/sources/wilayah-bps-crosswalk.csv (its README's table); every row: test/node/bps-crosswalk.test.ts.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, expectError, json, mcpTool, seedUserWithKey } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});

const get = (path: string) => call(`/api/v1/wilayah${path}`, { key });

describe("GET /wilayah/bps/:code", () => {
  it("answers the spot checks at every level, with or without separators", async () => {
    const cases: [string, string, string, string][] = [
      // BPS code as written, current id, level, period
      ["3273", "32.73", "kabupaten", "2025_2"], // Kota Bandung
      ["3273190", "32.73.06", "kecamatan", "2025_2"], // Cicendo: BPS 190, Kemendagri 06
      ["32.73.190", "32.73.06", "kecamatan", "2025_2"],
      ["3273190001", "32.73.06.1002", "kelurahan", "2020_2"], // Arjuna
      ["32.73.190.001", "32.73.06.1002", "kelurahan", "2020_2"],
      ["9702", "95.01", "kabupaten", "2025_2"], // Jayawijaya after BPS renumbered Papua (province 97 = Kemendagri 95)
      ["9402", "95.01", "kabupaten", "2020_2"], // Jayawijaya's BPS code before the 2022 split
    ];
    for (const [code, id, level, period] of cases) {
      const res = await get(`/bps/${code}`);
      expect(res.status, code).toBe(200);
      const { data } = await json(res);
      expect(data, code).toMatchObject({ bps_code: code.replaceAll(".", ""), level, period, current: { id, level } });
    }
    const { data } = await json(await get("/bps/3273190"));
    expect(data).toEqual({
      bps_code: "3273190",
      level: "kecamatan",
      bps_name: "CICENDO",
      period: "2025_2",
      match: "same_code_same_name",
      kemendagri_codes: ["32.73.06"],
      kemendagri_name: "CICENDO",
      current: { id: "32.73.06", name: "Cicendo", level: "kecamatan" },
    });
    expect((await json(await get("/bps/9402"))).data).toMatchObject({ match: "renamed_or_moved", kemendagri_codes: ["91.02"], bps_name: null });
  });

  it("leaves a BPS code paired with several Kemendagri codes unmapped", async () => {
    const { data } = await json(await get("/bps/7210121"));
    expect(data).toMatchObject({ bps_name: "SIGI KOTA", match: "none", current: null, kemendagri_codes: ["72.10.12", "72.10.02", "72.10.01"] });
  });

  it("404 names the periods held; 400 for what is no BPS code", async () => {
    const res = await get("/bps/3273999");
    const body = await expectError(res, 404, "NOT_FOUND");
    expect(JSON.stringify(body)).toContain("2025 semester 2, 2020 semester 2, 2017 semester 2");
    for (const code of ["32", "32731", "abc", "327319000"]) await expectError(await get(`/bps/${code}`), 400, "INVALID_QUERY");
  });

  it("an uncached answer is one D1 round trip: the data version rides in the code's own read (src/data/reads.ts)", async () => {
    const own = (await seedUserWithKey({ plan: "free" })).secret;
    Object.assign(env, { D1_STATS: "on" });
    try {
      await call("/api/v1/wilayah/32", { key: own }); // the account's admission lease, so the calls below count the same
      const cost = async (code: string, status: number) => {
        const res = await call(`/api/v1/wilayah/bps/${code}`, { key: own });
        expect([res.status, res.headers.get("x-cache")], code).toEqual([status, status === 200 ? "MISS" : null]);
        return { queries: Number(res.headers.get("x-d1-queries")), trips: Number(res.headers.get("x-d1-round-trips")) };
      };
      expect(await cost("3273010", 200)).toEqual({ queries: 2, trips: 1 });
      // an unknown code reads the periods after its row (an error answer names no data version)
      expect((await cost("3273998", 404)).trips).toBe(2);
    } finally {
      Object.assign(env, { D1_STATS: "off" });
    }
  });

  it("the MCP tool answers the same", async () => {
    const r = await mcpTool(key, "wilayah_bps", { code: "3273190001" });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.data).toMatchObject({ current: { id: "32.73.06.1002", name: "Arjuna" } });
    expect((await json(await get("/bps/3273190001"))).data).toEqual(r.structuredContent.data);
  });
});

describe("bps_codes in the by-id answers", () => {
  it("every level carries the BPS codes that lie in it, newest period first", async () => {
    expect((await json(await get("/32"))).data.bps_codes).toEqual([]); // the crosswalk has no provinsi rows
    expect((await json(await get("/kabupaten/32.73"))).data.bps_codes).toEqual([{ code: "3273", period: "2025_2" }]);
    expect((await json(await get("/95.01"))).data.bps_codes).toEqual([
      { code: "9702", period: "2025_2" },
      { code: "9402", period: "2020_2" },
    ]);
    expect((await json(await get("/kecamatan/327306"))).data.bps_codes).toEqual([{ code: "3273190", period: "2025_2" }]);
    expect((await json(await get("/32.73.06.1002"))).data.bps_codes).toEqual([{ code: "3273190001", period: "2020_2" }]);
    const mcp = await mcpTool(key, "wilayah_detail", { id: "95.01" });
    expect(mcp.structuredContent.data.bps_codes.map((b: { code: string }) => b.code)).toEqual(["9702", "9402"]);
  });

  it("a retired code has none", async () => {
    const { data } = await json(await get("/91.02"));
    expect(data.is_active).toBe(0);
    expect(data.bps_codes).toEqual([]);
  });

  it("reads a by-id answer's BPS rows through the current_id index (its own rows only)", async () => {
    const plan = await env.DB.prepare("EXPLAIN QUERY PLAN SELECT code, period FROM wilayah_bps WHERE current_id = ? ORDER BY period DESC, code")
      .bind("95.01")
      .all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join(" ")).toMatch(/USING COVERING INDEX wilayah_bps_current_idx \(current_id=\?\)$/); // no table read, no sort
    // D1 bills rows read: the extra statement reads the region's BPS rows, nothing more
    for (const [id, n] of [
      ["95.01", 2],
      ["32.73.06.1002", 1],
      ["32", 0],
    ] as const) {
      const read = await env.DB.prepare("SELECT code, period FROM wilayah_bps WHERE current_id = ? ORDER BY period DESC, code").bind(id).all();
      expect(read.results, id).toHaveLength(n);
      expect(read.meta.rows_read, id).toBeLessThanOrEqual(n + 1);
    }
  });
});

describe("POST /wilayah/convert from bps", () => {
  it("converts BPS codes in order, each one call", async () => {
    const res = await call("/api/v1/wilayah/convert", {
      key,
      method: "POST",
      json: { from: "bps", codes: ["3273", "3273190", "3273190001", "9402", "7210121", "3273999", "x"] },
    });
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data.map((d: { status: string; current: { id: string } | null }) => [d.status, d.current?.id ?? null])).toEqual([
      ["current", "32.73"],
      ["current", "32.73.06"],
      ["current", "32.73.06.1002"],
      ["current", "95.01"],
      ["unmapped", null],
      ["unknown", null],
      ["unknown", null],
    ]);
    expect(data[3]).toMatchObject({ code: "9402", id: "9402", bps: { period: "2020_2", match: "renamed_or_moved", kemendagri_codes: ["91.02"] } });
    expect(data[6].id).toBeNull();
    // without from, the same codes are Kemendagri codes
    const kemendagri = await json(await call("/api/v1/wilayah/convert", { key, method: "POST", json: { codes: ["3273190001"] } }));
    expect(kemendagri.data[0].status).toBe("unknown");
  });

  it("refuses another from, and more than 1,000 codes", async () => {
    await expectError(await call("/api/v1/wilayah/convert", { key, method: "POST", json: { from: "nik", codes: ["3273"] } }), 400, "VALIDATION_ERROR");
    await expectError(
      await call("/api/v1/wilayah/convert", { key, method: "POST", json: { from: "bps", codes: Array(1001).fill("3273") } }),
      400,
      "VALIDATION_ERROR",
    );
  });

  it("the MCP tool takes from bps", async () => {
    const r = await mcpTool(key, "wilayah_convert", { from: "bps", codes: ["3273190"] });
    expect(r.structuredContent.data[0]).toMatchObject({ status: "current", current: { id: "32.73.06", name: "Cicendo" } });
  });
});

describe("search by a BPS code", () => {
  it("finds the region a BPS code lies in, as a code match", async () => {
    for (const [q, id] of [
      ["3273190", "32.73.06"],
      ["3273190001", "32.73.06.1002"],
      ["32.73.190.001", "32.73.06.1002"],
      ["9402", "95.01"],
    ]) {
      const body = await json(await get(`/search?q=${encodeURIComponent(q)}`));
      expect(body.data[0], q).toMatchObject({ id, match: { type: "code" } });
    }
    const mcp = await mcpTool(key, "wilayah_search", { q: "3273190" });
    expect(mcp.structuredContent.data[0].id).toBe("32.73.06");
  });

  it("lists both regions for ten digits that are a Kemendagri code and a BPS code of another village", async () => {
    const body = await json(await get("/search?q=1101022001"));
    const ids = body.data.map((r: { id: string }) => r.id);
    expect(ids).toContain("11.01.02.2001"); // Fajar Harapan, the Kemendagri code
    expect(ids).toContain("11.09.09.2005"); // where BPS 1101022001 leads

    const kabupaten = (await json(await get("/search?q=1101"))).data.map((r: { id: string }) => r.id);
    expect(kabupaten.slice(0, 2).sort()).toEqual(["11.01", "11.09"]); // Aceh Selatan (Kemendagri 11.01), Simeulue (BPS 1101)
  });
});

describe("addresses with a BPS code", () => {
  const address = (q: string) => call(`/api/v1/wilayah/address?q=${encodeURIComponent(q)}`, { key });

  it("reads a 7- or 10-digit BPS code where no Kemendagri code has the same digits", async () => {
    const village = (await json(await address("Kode BPS 3273190001"))).data;
    expect(village.kelurahan).toEqual({ id: "32.73.06.1002", name: "Arjuna" });
    const kecamatan = (await json(await address("3273190, Kota Bandung"))).data;
    expect(kecamatan).toMatchObject({ level: "kecamatan", kecamatan: { id: "32.73.06", name: "Cicendo" } });
  });

  it("keeps the Kemendagri reading of ten digits some edition holds (BPS 1101022001 would be 11.09.09.2005)", async () => {
    const { data } = await json(await address("1101022001"));
    expect(data.kelurahan?.id).not.toBe("11.09.09.2005");
    expect(data.kabupaten?.id).not.toBe("11.09");
  });
});
