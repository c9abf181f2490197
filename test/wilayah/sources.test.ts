/**
 * Provenance (issue 40, part 1) through HTTP and MCP: `include=sources` on the by-id answers of each
 * level, regions corrected by hand (a curated history link, a name reading, a point derived from a
 * boundary, an island move), a renamed and a retired code, bad `include` values, answers without
 * `include` unchanged, and the page /docs/guide/sources read from the same table.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, expectError, json, mcpTool, seedUserWithKey } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});

const get = (path: string) => call(`/api/v1/wilayah${path}`, { key });
const sourcesOf = async (path: string) => {
  const res = await get(path);
  expect(res.status, path).toBe(200);
  return (await json(res)).data.sources;
};
const ids = (family: { sources: { id: string }[] }) => family.sources.map((s) => s.id);

describe("GET /wilayah/{id}?include=sources", () => {
  it("gives every family of each level its sources, with version, licence and attribution", async () => {
    const expected: [string, string[]][] = [
      ["32", ["code_name", "coordinates", "boundary", "population_area", "islands"]],
      ["32.73", ["code_name", "coordinates", "boundary", "population_area", "islands", "bps_codes"]],
      ["32.73.09", ["code_name", "coordinates", "boundary", "bps_codes"]],
      ["32.73.09.1001", ["code_name", "coordinates", "postal_code", "boundary", "bps_codes"]],
    ];
    for (const [id, families] of expected) {
      const s = await sourcesOf(`/${id}?include=sources`);
      expect(Object.keys(s).sort(), id).toEqual([...families].sort());
      // the code list: idn-area-data (ODbL, attributed), the editions, and the regulation in force
      expect(ids(s.code_name), id).toEqual(expect.arrayContaining(["idn-area-data", "cahyadsn-wilayah-editions", "edition-2025"]));
      const idn = s.code_name.sources.find((x: { id: string }) => x.id === "idn-area-data");
      expect(idn).toMatchObject({ kind: "dataset", version: "4.0.1", licence: "ODbL-1.0", licence_url: "https://opendatacommons.org/licenses/odbl/1-0/" });
      expect(idn.attribution).toMatch(/idn-area-data 4\.0\.1 by Fityan Nugroho.*Open Database License/);
      expect(s.code_name.list).toMatchObject({ edition: "2025", regulation: "Kepmendagri 300.2.2-2138/2025 as amended by 300.2.2-2430/2025" });
      expect(s.coordinates.sources[0], id).toMatchObject({ id: "cahyadsn-centroids", version: "3c5a796", date: "2026-08-20", licence: "MIT" });
      expect(s.boundary.sources[0], id).toMatchObject({ id: "cahyadsn-boundaries", version: "3c5a796", licence: "MIT" });
      expect(s.coordinates.note, id).toBeNull();
    }
    const kel = await sourcesOf("/32.73.09.1001?include=sources");
    expect(kel.postal_code).toMatchObject({ covers: ["postal_code"], note: null, corrections: [] });
    expect(kel.postal_code.sources).toEqual([expect.objectContaining({ id: "cahyadsn-kodepos", version: "4fa8c59", licence: "MIT" })]);
    // Cihapit's BPS code is of period 2020_2: the bridging service and the repository of that period, no other
    expect(ids(kel.bps_codes)).toEqual(["bps-bridging", "bps-2020_2"]);
    expect(kel.bps_codes.sources[0]).toMatchObject({ version: null, licence: null });
    expect(kel.bps_codes.sources[0].note).toMatch(/no licence stated/);
    // a code in every edition under the same name: set in 2015 or before (the oldest edition held)
    expect(kel.code_name.code_set_in).toMatchObject({ edition: "2015", regulation: "Permendagri 56/2015", at_or_before: true, change: null });
    expect(kel.code_name.name_set_in).toMatchObject({ edition: "2015", at_or_before: true });
    expect(kel.code_name.corrections).toEqual([]);
    expect(ids(kel.code_name)).not.toContain("wilayah-api-curated");

    const kab = await sourcesOf("/32.73?include=sources");
    expect(kab.population_area.sources[0]).toMatchObject({ id: "cahyadsn-population-area", version: "b7ad440", licence: "MIT" });
    expect(kab.population_area.sources[0].note).toMatch(/no reference date/);
    expect(ids(kab.bps_codes)).toEqual(["bps-bridging", "bps-2025_2"]);
    expect(kab.code_name.list.date).toBe("2025-04-25");
  });

  it("cites the edition, regulation and curated law that set a recoded code (Merauke, 91.01 -> 93.01)", async () => {
    const s = await sourcesOf("/93.01?include=sources");
    expect(s.code_name.code_set_in).toMatchObject({
      edition: "2022b",
      regulation: "Kepmendagri 100.1.1-6117/2022",
      at_or_before: false,
      change: { kind: "recoded", from: "91.01", basis: "curated", confidence: 1 },
    });
    expect(s.code_name.corrections).toContainEqual({
      kind: "curated_history",
      value: "91.01 became 93.01 in edition 2022b",
      basis: "UU 14/2022 Pembentukan Provinsi Papua Selatan (cakupan wilayah: Kabupaten Merauke)",
      source_file: "seed/history-curated.csv",
    });
    expect(ids(s.code_name)).toEqual(expect.arrayContaining(["wilayah-api-curated", "edition-2022b", "edition-2025"]));
  });

  it("says where a name was set and how the edition writes it (32.05.38, renamed in 2017 and 2020)", async () => {
    const s = await sourcesOf("/32.05.38?include=sources");
    expect(s.code_name.name_set_in).toMatchObject({
      edition: "2020",
      regulation: "Permendagri 72/2019 as revised by Kepmendagri 146.1-4717/2020",
      at_or_before: false,
    });
    expect(s.code_name.name_as_published).toBe("Limbangan");
    expect(s.code_name.note).toMatch(/idn-area-data/);
  });

  it("cites name readings, aliases and hand-set names with their basis", async () => {
    const bandung = await sourcesOf("/32.73?include=sources");
    expect(bandung.code_name.corrections).toContainEqual(
      expect.objectContaining({ kind: "name_reading", value: '"bdg" is read as "bandung" (abbreviation)', source_file: "seed/name-table.csv" }),
    );
    expect(bandung.code_name.corrections.find((c: { kind: string }) => c.kind === "name_reading").basis).toMatch(/SNI 7657:2010/);
    const jakarta = await sourcesOf("/31?include=sources");
    expect(jakarta.code_name.corrections).toContainEqual(
      expect.objectContaining({ kind: "alias", value: "Batavia (former)", source_file: "seed/aliases.csv" }),
    );
    expect(jakarta.code_name.corrections).toContainEqual(
      expect.objectContaining({ kind: "alt_name", value: "DKI Jakarta", source_file: "scripts/seed/build.ts" }),
    );
  });

  it("says a point was derived from the boundary, and cites the island moves of 2430/2025", async () => {
    const village = await sourcesOf("/92.03.16.2005?include=sources");
    expect(village.coordinates.corrections).toEqual([expect.objectContaining({ kind: "derived_point" })]);
    const singkil = await sourcesOf("/11.10?include=sources");
    expect(singkil.islands.corrections).toHaveLength(4);
    expect(singkil.islands.corrections[0]).toMatchObject({ kind: "island_move", source_file: "seed/sources/wilayah-2430-island-moves.csv" });
    expect(ids(singkil.islands)).toEqual(["idn-area-data", "cahyadsn-island-moves"]);
  });

  it("says which facts a region lacks, from the coverage report of what is loaded", async () => {
    // a village the sources have no point, no boundary and no BPS code for
    const s = await sourcesOf("/11.16.06.2021?include=sources");
    expect(s.coordinates.note).toMatch(/^No point/);
    expect(s.boundary.note).toMatch(/^No boundary/);
    expect(s.bps_codes.note).toBe("No BPS code leads to this region.");
    expect(s.bps_codes.sources.map((x: { id: string }) => x.id)).toEqual(["bps-bridging"]);
    expect(s.postal_code.note).toBeNull();
    // Cihapit has them all (its boundary is among the test's loaded village boundaries)
    const cihapit = await sourcesOf("/32.73.09.1001?include=sources");
    for (const f of ["coordinates", "postal_code", "boundary", "bps_codes"]) expect(cihapit[f].note, f).toBeNull();
  });

  it("answers for a retired code: the editions that held it", async () => {
    const s = await sourcesOf("/91.01?include=sources");
    expect(s.code_name.code_set_in).toMatchObject({ edition: "2015", at_or_before: true });
    expect(s.code_name.until).toMatchObject({ edition: "2022", regulation: "Permendagri 58/2021 as revised by Kepmendagri 050-145/2022" });
    expect(s.code_name.corrections).toContainEqual(expect.objectContaining({ kind: "curated_history", value: "91.01 became 93.01 in edition 2022b" }));
    expect(s.coordinates.note).toMatch(/^A retired code/);
    // a retired code of an older idn-area-data release that no edition holds: when it was set cannot be told
    const orphan = await sourcesOf("/96.01.05.1006?include=sources");
    expect(orphan.code_name).toMatchObject({ code_set_in: null, name_set_in: null, until: null });
    expect(orphan.code_name.note).toMatch(/No edition of the code list/);
  });

  it("works on the per-level by-id route too; without include the answer is unchanged", async () => {
    const withSources = await json(await get("/kelurahan/3273091001?include=sources"));
    expect(withSources.data.sources.postal_code.sources[0].id).toBe("cahyadsn-kodepos");
    const plain = await json(await get("/kelurahan/3273091001"));
    expect(plain.data).not.toHaveProperty("sources");
    const { sources, ...rest } = withSources.data;
    expect(rest).toEqual(plain.data);
    expect((await json(await get("/32.73.09.1001"))).data).not.toHaveProperty("sources");
  });

  it("adds no D1 read to a by-id call without include (the same statements and rows as before issue 40)", async () => {
    // D1_STATS (src/http/d1-stats.ts) counts statements and rows; measured on main before this change
    // (150a310): 4 statements, 5 rows for a kelurahan by id (the dataset version twice, the region and
    // its BPS codes); 3 and 4 since the version before the reads comes from the isolate (src/data/run.ts).
    const own = (await seedUserWithKey({ plan: "free" })).secret;
    Object.assign(env, { D1_STATS: "on" });
    try {
      await call("/api/v1/wilayah/32", { key: own }); // the account's admission lease, so the calls below count the same
      const cost = async (path: string) => {
        const res = await call(`/api/v1/wilayah${path}`, { key: own });
        expect([res.status, res.headers.get("x-cache")], path).toEqual([200, "MISS"]);
        return {
          queries: Number(res.headers.get("x-d1-queries")),
          rows: Number(res.headers.get("x-d1-rows-read")),
          trips: Number(res.headers.get("x-d1-round-trips")),
        };
      };
      // one round trip since the version rides in the answer's own batch (src/data/reads.ts)
      expect(await cost("/kelurahan/32.73.09.1003")).toEqual({ queries: 3, rows: 4, trips: 1 });
      expect(await cost("/32.73.06.1005")).toEqual({ queries: 3, rows: 4, trips: 1 });
      const withSources = await cost("/kelurahan/32.73.09.1002?include=sources");
      expect(withSources.queries).toBeGreaterThan(4);
    } finally {
      Object.assign(env, { D1_STATS: "off" });
    }
  });

  it("refuses an unknown include with 400 INVALID_QUERY", async () => {
    for (const q of ["include=foo", "include=sources,history", "include=SOURCES", "include="]) {
      const body = await expectError(await get(`/32.73?${q}`), 400, "INVALID_QUERY");
      expect(JSON.stringify(body), q).toContain("include");
    }
    await expectError(await get("/kabupaten/32.73?include=x"), 400, "INVALID_QUERY");
  });

  it("is in the API document: the include parameter and the sources object, on both by-id routes", async () => {
    const doc = await json(await call("/openapi.json"));
    for (const path of ["/api/v1/wilayah/{id}", "/api/v1/wilayah/kelurahan/{id}"]) {
      const op = doc.paths[path].get;
      const include = op.parameters.find((p: { name: string }) => p.name === "include");
      expect(include, path).toMatchObject({ in: "query", required: false, schema: { enum: ["sources"] } });
      expect(include.description ?? include.schema.description, path).toMatch(/where each family/);
      const data = op.responses["200"].content["application/json"].schema.properties.data;
      expect(Object.keys(data.properties.sources.properties), path).toEqual([
        "code_name",
        "coordinates",
        "postal_code",
        "boundary",
        "population_area",
        "islands",
        "bps_codes",
      ]);
    }
    expect(doc.paths["/api/v1/wilayah/{id}"].get.description).toContain("include=sources");
  });

  it("reads one region's corrections by the primary key", async () => {
    const plan = await env.DB.prepare("EXPLAIN QUERY PLAN SELECT family, kind, value, basis, source_file FROM wilayah_source_note WHERE region_id = ?")
      .bind("32.73")
      .all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join(" ")).toMatch(/USING INDEX sqlite_autoindex_wilayah_source_note_1 \(region_id=\?\)/);
  });
});

describe("MCP wilayah_detail include", () => {
  it("answers the same sources as REST", async () => {
    const r = await mcpTool(key, "wilayah_detail", { id: "32.73.09.1001", include: "sources" });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual(await json(await get("/32.73.09.1001?include=sources")));
    const plain = await mcpTool(key, "wilayah_detail", { id: "32.73.09.1001" });
    expect(plain.structuredContent.data).not.toHaveProperty("sources");
  });

  it("refuses a bad include as a tool error with the REST code", async () => {
    const r = (await mcpTool(key, "wilayah_detail", { id: "32.73", include: "everything" })) as unknown as {
      isError: boolean;
      structuredContent?: unknown;
      content: { text: string }[];
    };
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toContain("INVALID_QUERY");
  });
});

describe("/docs/guide/sources", () => {
  it("lists every source of the table with its licence and attribution", async () => {
    const res = await call("/docs/guide/sources");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await res.text();
    const rows = await env.DB.prepare("SELECT id, name, attribution, licence FROM wilayah_source ORDER BY ord").all<{
      id: string;
      name: string;
      attribution: string;
      licence: string | null;
    }>();
    expect(rows.results.length).toBeGreaterThanOrEqual(18);
    const htmlText = (s: string) =>
      s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
    for (const r of rows.results) {
      expect(html, r.id).toContain(`id="${r.id}"`);
      expect(html, r.id).toContain(htmlText(r.attribution));
    }
    expect(html).toContain("ODbL-1.0");
    expect(html).toContain("none stated");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    // linked from the guides' index
    expect(await (await call("/docs/guide")).text()).toContain('href="/docs/guide/sources"');
  });
});
