/**
 * The code mapping files through HTTP (GET /api/v1/wilayah/changes/mapping): the files the seed
 * side builds (test/setup/exports-subset.ts: edition 2022, the codes of Papua and Papua Barat, every
 * format, with the real code) put into the test R2, then downloaded as a customer does. Each row is
 * checked against what /wilayah/convert answers for the same code; the Papua formations of 2022
 * (Merauke 91.01 -> 93.01) and a code of every status are looked up by name.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CURRENT_EXPORT } from "../../src/wilayah/export/service";
import { MAPPING_FILES, removeExport, uploadExportSubset } from "../export-subset";
import { call, createKey, expectError, json, parseCsv, seedUserWithKey, setPlan, usageOf, verifiedDeveloper, waitForTotal } from "../helpers";

let paid: string;
let internal: string;

beforeAll(async () => {
  paid = (await seedUserWithKey({ plan: "starter" })).secret;
  internal = (await seedUserWithKey()).secret;
  await uploadExportSubset();
});

const mapping = (query: string, key = paid) => call(`/api/v1/wilayah/changes/mapping${query}`, { key });

async function sha256Hex(bytes: ArrayBuffer) {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

type Row = {
  old_code: string;
  old_name: string;
  level: string;
  status: string;
  new_code: string | null;
  new_name: string | null;
  basis: string | null;
  confidence: number | null;
};

/** The rows a file says for one code. */
const rowsOf = (rows: Row[], code: string) => rows.filter((r) => r.old_code === code);

describe("the code mapping file", () => {
  let rows: Row[];
  let version: string;

  beforeAll(async () => {
    const res = await mapping("?from=2022&format=json");
    expect(res.status).toBe(200);
    version = res.headers.get("x-data-version") ?? "";
    rows = (await json(res)).data;
  });

  it("JSON: {meta, data}, with the editions, the export and the data version; headers as an export's", async () => {
    const res = await mapping("?from=2022&format=json");
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="wilayah-mapping-2022-to-2025-${CURRENT_EXPORT}.json"`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("x-export-id")).toBe(CURRENT_EXPORT);
    expect(res.headers.get("x-data-version")).toBe((await call("/api/v1/wilayah/provinsi", { key: internal })).headers.get("x-data-version"));
    const bytes = await res.arrayBuffer();
    expect(Number(res.headers.get("content-length"))).toBe(bytes.byteLength);
    const sha = await sha256Hex(bytes);
    expect(res.headers.get("x-checksum-sha256")).toBe(sha);
    expect(res.headers.get("etag")).toBe(`"${sha}"`);
    const body = JSON.parse(new TextDecoder().decode(bytes));
    expect(body.meta).toMatchObject({ from: "2022", to: "2025", export_id: CURRENT_EXPORT, data_version: version, total: body.data.length });
    expect(body.meta.license).toMatch(/ODbL/);
    expect(Object.keys(body.data[0])).toEqual(["old_code", "old_name", "level", "status", "new_code", "new_name", "basis", "confidence"]);
  });

  it("the Papua formations of 2022: Merauke and its villages recoded under Papua Selatan (93), Papua keeps its code", () => {
    expect(rowsOf(rows, "91.01")).toEqual([
      {
        old_code: "91.01",
        old_name: "KAB. MERAUKE",
        level: "kabupaten",
        status: "recoded",
        new_code: "93.01",
        new_name: "Kabupaten Merauke",
        basis: "curated",
        confidence: 1,
      },
    ]);
    expect(rowsOf(rows, "91.01.01.2001")).toMatchObject([{ status: "recoded", new_code: "93.01.01.2001", basis: "same_name", confidence: 0.95 }]);
    expect(rowsOf(rows, "92.71")).toMatchObject([{ status: "recoded", new_code: "96.71", new_name: "Kota Sorong", basis: "curated" }]);
    expect(rowsOf(rows, "91")).toEqual([
      { old_code: "91", old_name: "PAPUA", level: "provinsi", status: "same", new_code: "91", new_name: "Papua", basis: null, confidence: null },
    ]);
  });

  it("a code of every status: renamed, merged, ambiguous (one row per candidate), retired (no new code)", () => {
    expect(rowsOf(rows, "91.06.11.2007")).toMatchObject([{ status: "renamed", old_name: "Maibaken", new_code: "91.06.11.2007", new_name: "Moibaken" }]);
    // two codes of 2022 went to Lelambo 95.03.02.2002
    expect(rowsOf(rows, "91.13.02.2022")).toMatchObject([{ status: "merged", new_code: "95.03.02.2002" }]);
    expect(rowsOf(rows, "91.13.31.2001")).toMatchObject([{ status: "merged", new_code: "95.03.02.2002" }]);
    expect(rowsOf(rows, "91.08.01.2034")).toMatchObject([
      { status: "ambiguous", new_code: "94.03.01.2011", basis: "same_name", confidence: 0.25 },
      { status: "ambiguous", new_code: "94.03.01.2018", basis: "same_name", confidence: 0.25 },
    ]);
    expect(rowsOf(rows, "91.03.01.2007")).toEqual([
      { old_code: "91.03.01.2007", old_name: "Keheran", level: "kelurahan", status: "retired", new_code: null, new_name: null, basis: null, confidence: null },
    ]);
    const statuses = new Set(rows.map((r) => r.status));
    expect([...statuses].sort()).toEqual(["ambiguous", "merged", "recoded", "renamed", "retired", "same"]);
  });

  it("says of every code what /wilayah/convert says (a sample of each status)", async () => {
    const byStatus = new Map<string, string[]>();
    for (const r of rows) byStatus.set(r.status, [...new Set([...(byStatus.get(r.status) ?? []), r.old_code])]);
    const codes = [...byStatus.values()].flatMap((list) => list.filter((_, i) => i % Math.ceil(list.length / 40) === 0));
    const answers = (await json(await call("/api/v1/wilayah/convert", { method: "POST", json: { codes }, key: internal }))).data;
    for (const [i, code] of codes.entries()) {
      const mine = rowsOf(rows, code);
      const a = answers[i];
      if (mine[0].status === "same" || mine[0].status === "renamed") {
        expect(a.status, code).toBe("current");
        expect(
          mine.map((r) => [r.new_code, r.new_name]),
          code,
        ).toEqual([[a.current.id, a.current.name]]);
      } else {
        expect(a.status, code).toBe("retired");
        const successors = a.successors.map((s: { id: string; name: string; basis: string; confidence: number }) => [s.id, s.name, s.basis, s.confidence]);
        expect(
          mine.filter((r) => r.new_code).map((r) => [r.new_code, r.new_name, r.basis, r.confidence]),
          code,
        ).toEqual(successors);
      }
    }
    expect(codes.length).toBeGreaterThan(40);
  });

  it("every code of the edition has a row (here: every 2022 code under 91 and 92, as /wilayah/{code}/history lists the editions)", async () => {
    const merauke = (await json(await call("/api/v1/wilayah/91.01/history", { key: internal }))).data;
    expect(merauke.editions.map((e: { edition: string }) => e.edition)).toContain("2022");
    const codes = new Set(rows.map((r) => r.old_code));
    expect(codes.size).toBe(8186);
    expect(rows.every((r) => /^9[12]/.test(r.old_code))).toBe(true);
  });

  it("CSV: the same rows, a header row, CRLF lines, null as an empty field", async () => {
    const res = await mapping("?from=2022&format=csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="wilayah-mapping-2022-to-2025-${CURRENT_EXPORT}.csv"`);
    const text = await res.text();
    expect(text).toBe(MAPPING_FILES["mapping-2022.csv"]);
    const [header, ...lines] = parseCsv(text);
    expect(header).toEqual(["old_code", "old_name", "level", "status", "new_code", "new_name", "basis", "confidence"]);
    expect(lines).toEqual(rows.map((r) => header.map((c) => (r[c as keyof Row] === null ? "" : String(r[c as keyof Row])))));
    expect(text).toContain('91.09.10.2004,TSinga,kelurahan,recoded,94.04.10.2004,"T""Singa",same_name,0.95\r\n'); // a quote in a name
  });

  it("SQL: CREATE TABLE wilayah_code_map(old_code, new_code, status, basis, confidence) and multi-row INSERTs of the same rows", async () => {
    const res = await mapping("?from=2022&format=sql");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/sql; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="wilayah-mapping-2022-to-2025-${CURRENT_EXPORT}.sql"`);
    const sql = new TextDecoder().decode(await res.arrayBuffer());
    expect(sql).toContain("CREATE TABLE wilayah_code_map (");
    expect(sql).toContain("INSERT INTO wilayah_code_map (old_code, new_code, status, basis, confidence) VALUES\n('91', '91', 'same', NULL, NULL),\n");
    expect(sql).toContain("('91.01', '93.01', 'recoded', 'curated', 1),");
    expect(sql).toContain("('91.03.01.2007', NULL, 'retired', NULL, NULL)");
    const inserts = sql.split("\n").filter((l) => l.startsWith("INSERT INTO"));
    expect(inserts).toHaveLength(Math.ceil(rows.length / 500));
    // Each row one tuple line (the node test loads the file into SQLite: test/node/mapping-sql.test.ts).
    expect(sql.split("\n").filter((l) => l.startsWith("('")).length).toBe(rows.length);
  });

  it("the export's manifest lists the mapping files with their sizes, checksums and downloads", async () => {
    const m = (await json(await call("/api/v1/wilayah/export/manifest", { key: paid }))).data;
    expect(m.mappings.map((f: { name: string }) => f.name).sort()).toEqual(Object.keys(MAPPING_FILES).sort());
    const csv = m.mappings.find((f: { format: string }) => f.format === "csv");
    expect(csv).toMatchObject({
      name: "mapping-2022.csv",
      from: "2022",
      to: "2025",
      media_type: "text/csv; charset=utf-8",
      records: rows.length,
      size: new TextEncoder().encode(MAPPING_FILES["mapping-2022.csv"]).length,
      download: "/api/v1/wilayah/changes/mapping?from=2022&format=csv",
    });
  });
});

describe("the code mapping file's refusals", () => {
  it("an unknown edition, the current edition, a bad or missing format, an unknown parameter: 400 INVALID_QUERY, not metered", async () => {
    const dev = await verifiedDeveloper();
    const { key } = await createKey(dev.token);
    await setPlan(dev.data.id, "starter");
    let err = await expectError(await mapping("?from=1999&format=csv", key), 400, "INVALID_QUERY");
    expect(err.message).toContain("2015, 2017, 2020, 2022, 2022b");
    expect(err.details).toEqual([{ path: "from", message: "one of 2015, 2017, 2020, 2022, 2022b" }]);
    err = await expectError(await mapping("?from=2025&format=csv", key), 400, "INVALID_QUERY");
    expect(err.message).toMatch(/current one/);
    await expectError(await mapping("?from=2022&format=xlsx", key), 400, "INVALID_QUERY");
    await expectError(await mapping("?from=2022&format=geojson", key), 400, "INVALID_QUERY");
    await expectError(await mapping("?from=2022", key), 400, "INVALID_QUERY");
    await expectError(await mapping("?format=csv", key), 400, "INVALID_QUERY");
    await expectError(await mapping("?from=2022&format=csv&level=kabupaten", key), 400, "INVALID_QUERY");
    // an earlier edition whose file this export lacks (the subset has 2022 only): 404, as an export's missing file
    err = await expectError(await mapping("?from=2015&format=csv", key), 404, "NOT_FOUND");
    expect(err.message).toContain("mapping-2015.csv");
    const res = await mapping("?from=2022&format=csv", key);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const u = await waitForTotal(dev.token, 1);
    expect(u.total).toBe(1);
  });

  it("is for paid plans: the free plan gets 403 PLAN_REQUIRED before its input is read, not metered; no key: 401", async () => {
    const dev = await verifiedDeveloper();
    const { key } = await createKey(dev.token);
    const err = await expectError(await mapping("?from=2022&format=csv", key), 403, "PLAN_REQUIRED");
    expect(err.message).toMatch(/paid plans/);
    await expectError(await mapping("?from=nowhere", key), 403, "PLAN_REQUIRED");
    expect((await usageOf(dev.token)).total).toBe(0);
    await expectError(await call("/api/v1/wilayah/changes/mapping?from=2022&format=csv"), 401, "MISSING_API_KEY");
    await expectError(await call("/api/v1/wilayah/changes/mapping?from=2022&format=csv", { key: "wk_live_nope" }), 401, "INVALID_API_KEY");
  });

  it("each download is one call, metered like an export download (usage names /wilayah/changes/mapping)", async () => {
    const dev = await verifiedDeveloper();
    const { key } = await createKey(dev.token);
    await setPlan(dev.data.id, "starter");
    for (const format of ["csv", "json", "sql"]) {
      const res = await mapping(`?from=2022&format=${format}`, key);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const res = await call("/api/v1/wilayah/export?level=provinsi&format=csv", { key });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const u = await waitForTotal(dev.token, 4);
    expect(u.total).toBe(4);
    expect(u.by_endpoint).toEqual(
      expect.arrayContaining([
        { endpoint: "/wilayah/changes/mapping", count: 3 },
        { endpoint: "/wilayah/export", count: 1 },
      ]),
    );
  });

  it("reaches its own route, not /wilayah/changes or /wilayah/:id; HEAD is refused; no MCP tool", async () => {
    const changes = await call("/api/v1/wilayah/changes?from=2022&to=2022b&per_page=1", { key: internal });
    expect(changes.status).toBe(200);
    expect((await json(changes)).meta).toMatchObject({ from: "2022", to: "2022b" });
    const head = await call("/api/v1/wilayah/changes/mapping?from=2022&format=csv", { key: paid, method: "HEAD" });
    expect(head.status).toBe(405);
    const { dataEndpoints } = await import("../../src/catalogue");
    const ep = dataEndpoints.find((e) => e.path === "/wilayah/changes/mapping");
    expect(ep?.tool).toBeNull();
    expect(dataEndpoints.indexOf(ep!)).toBeLessThan(dataEndpoints.findIndex((e) => e.path === "/wilayah/:id"));
  });
});

describe("the code mapping file before an upload", () => {
  beforeAll(removeExport);

  it("answers 404 NOT_FOUND saying the export of this data is not available yet; then served again once uploaded", async () => {
    const err = await expectError(await mapping("?from=2022&format=csv"), 404, "NOT_FOUND");
    expect(err.message).toContain(`export ${CURRENT_EXPORT}`);
    await uploadExportSubset();
    const res = await mapping("?from=2022&format=csv");
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});
