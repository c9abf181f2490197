import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { builtSeed } from "../../test/node/built-seed.ts";
import { SEED_DIR } from "../lib";
import { buildSeed, type SeedResult } from "./build";
import { renderReport } from "./history";
import { parseCoords, parsePostalCodes, parseStats } from "./region-sources";

const root = join(import.meta.dirname, "..", "..");
const require = createRequire(import.meta.url);
const packageData = (pkg: string, file: string) => join(dirname(require.resolve(`${pkg}/package.json`)), "data", file);

/** Data rows of a package CSV, counted independently of the package's own parser. */
function csvRows(pkg: string, file: string): string[] {
  const lines = readFileSync(packageData(pkg, file), "utf8").split(/\r?\n/).slice(1);
  return lines.filter((l) => l.trim() !== "").map((l) => l.slice(0, l.indexOf(",")));
}

let seed: SeedResult;
beforeAll(async () => {
  // The build of seed/ as the other node suites share it (test/node/built-seed.ts: built here when none is kept for this code and these inputs).
  seed = await builtSeed();
}, 300_000);

const BASIS = "Perwal Bandung 1/2026";
let other: Promise<SeedResult> | undefined;
/**
 * One build with another coordinates file and three corrections, which the coordinates test and the
 * corrections test each read (neither option touches what the other test checks): one whole build
 * instead of two (about 20 s quiet each, over a minute beside the other suites).
 */
const otherBuild = () =>
  (other ??= buildSeed(SEED_DIR, {
    // Computed once (about 40 s: every village outline), by the build above.
    neighbours: seed.neighbours,
    coordsCsv: "code,lat,lng\n32.73,-6.91,107.61\n",
    corrections: [
      { reportId: "rpt_postal", regionCode: "32.73.09.1001", field: "postal_code", value: "40199", basis: BASIS, acceptedAt: "2026-11-28T01:00:00.000Z" },
      { reportId: "rpt_name", regionCode: "32.73.09", field: "name", value: "Bandung Wetan Raya", basis: BASIS, acceptedAt: "2026-11-28T02:00:00.000Z" },
      { reportId: "rpt_parent", regionCode: "32.73.09", field: "parent", value: "32.04", basis: BASIS, acceptedAt: "2026-11-28T03:00:00.000Z" },
    ],
  }));

describe("seed build", () => {
  it("holds every region of idn-area-data 4.x, no more, no fewer, as active rows", () => {
    const files = { provinsi: "provinces.csv", kabupaten: "regencies.csv", kecamatan: "districts.csv", kelurahan: "villages.csv" } as const;
    for (const [level, file] of Object.entries(files) as [keyof typeof files, string][]) {
      const codes = csvRows("idn-area-data", file);
      const active = seed.rows.filter((r) => r.level === level && r.isActive === 1).map((r) => r.id);
      expect(active.length, level).toBe(codes.length);
      expect(new Set(active)).toEqual(new Set(codes));
      expect(seed.manifest.counts[level].active).toBe(codes.length);
    }
  });

  it("keeps codes of the previous list (3.1.2) that the current one dropped, inactive", () => {
    const current = new Set(csvRows("idn-area-data", "villages.csv"));
    const dropped = csvRows("idn-area-data-v3", "villages.csv").filter((c) => !current.has(c));
    const inactive = seed.rows.filter((r) => r.isActive === 0).map((r) => r.id);
    expect(new Set(inactive)).toEqual(new Set(dropped));
    expect(inactive.length).toBe(117);
  });

  it("records the 365 renamed regions' former names for search, and alt names and types", () => {
    expect(seed.manifest.renamed).toBe(365);
    const byId = new Map(seed.rows.map((r) => [r.id, r]));
    // another spelling of the current name is a current spelling; another name is a former one
    expect(byId.get("12.74")?.aliases).toContain("KOTA TANJUNG BALAI");
    expect(byId.get("12.74")?.former).toEqual([]);
    expect(byId.get("31")).toMatchObject({ name: "Daerah Khusus Ibukota Jakarta", altName: "DKI Jakarta" });
    expect(byId.get("31.74")).toMatchObject({ altName: "Jakarta Selatan", type: "kota" });
    expect(byId.get("31.01")).toMatchObject({ altName: "Kepulauan Seribu", type: "kabupaten" });
  });

  it("renders statements that stay under D1's 100 KB statement limit", () => {
    const longest = Math.max(...seed.sql.split("\n").map((l) => Buffer.byteLength(l)));
    expect(longest).toBeLessThan(100_000);
  });

  // Also the build's determinism: the committed files were built by another run, byte for byte these.
  it("the committed seed is the one the build produces", () => {
    const committed = JSON.parse(readFileSync(join(root, "seed", "manifest.json"), "utf8"));
    expect(committed.checksum).toBe(seed.manifest.checksum);
    expect(readFileSync(join(root, "seed", "wilayah.sql"), "utf8")).toBe(seed.sql);
    expect(readFileSync(join(root, "seed", "vocabulary.json"), "utf8")).toBe(seed.vocabulary);
    // The village neighbours, loaded with the village boundaries (compared as text: gzip bytes may differ between zlib builds).
    expect(gunzipSync(readFileSync(join(root, "seed", "neighbours-kelurahan.csv.gz"))).toString()).toBe(gunzipSync(seed.kelurahanNeighboursCsv).toString());
    expect(readFileSync(join(root, "seed", "name-table.json"), "utf8")).toBe(seed.nameTable);
  });
});

describe("coordinates (seed/sources/wilayah-centroids.csv, or --coords)", () => {
  it("fills lat/lng from the centroids CSV for 99.3% of codes, from the boundary for 158 more, and leaves the others null", async () => {
    const withCoords = seed;
    expect(withCoords.manifest.coordinates).toEqual({ filled: 91_081 + 158, derived: 158, missing: 477, unknownCodes: 0 });
    const bandung = withCoords.rows.find((r) => r.id === "32.73")!;
    expect(bandung.lat).toBeCloseTo(-6.9, 0);
    expect(bandung.lng).toBeCloseTo(107.6, 0);
    const c = withCoords.manifest.coordinates!;
    expect(c.filled).toBeGreaterThan(90_000);
    expect(c.missing).toBe(withCoords.rows.length - c.filled);
    expect(c.missing).toBeGreaterThan(0);
    const missing = withCoords.rows.find((r) => r.lat === null)!;
    expect(missing.lng).toBeNull();
    expect(withCoords.sql).toContain("107.6");
  });

  it("rejects a value outside Indonesia, naming the row", () => {
    expect(() => parseCoords("code,lat,lng\n32,-6.9,107.6\n32.73,48.85,2.35\n")).toThrow(/line 3 \("32\.73,48\.85,2\.35"\).*lat/);
    expect(() => parseCoords("code,lat,lng\n32,-6.9,200\n")).toThrow(/line 2 .*lng/);
    expect(() => parseCoords("code,lat,lng\n32,abc,107\n")).toThrow(/line 2/);
    expect(() => parseCoords("code,lat,lng\nxx,-6.9,107\n")).toThrow(/line 2 .*code/);
    expect(() => parseCoords("id,y,x\n")).toThrow(/line 1/);
  });

  it("accepts a valid file", () => {
    expect(parseCoords("code,lat,lng\n32,-6.9,107.6\n\n").get("32")).toEqual({ lat: -6.9, lng: 107.6 });
  });

  it("takes another file with --coords: codes it lacks get a point of their boundary, or stay null without one", async () => {
    const other = await otherBuild();
    expect(other.rows.find((r) => r.id === "32.73")).toMatchObject({ lat: -6.91, lng: 107.61 });
    const c = other.manifest.coordinates!;
    expect(c.filled).toBe(1 + c.derived);
    expect(c.derived).toBe(38 + 514 - 1 + 7285 + 83_402);
    expect(other.rows.find((r) => r.id === "32.73.09")?.lat).toBeCloseTo(-6.9, 1);
  }, 300_000); // a whole seed build (otherBuild): about 20 s quiet, over a minute beside the other suites

  it("a region with a boundary and no centroid gets a point inside its boundary (Kalimantan Selatan, 72.06.20)", () => {
    const byId = new Map(seed.rows.map((r) => [r.id, r]));
    const kalsel = byId.get("63")!;
    // Banjarmasin (-3.3194, 114.5908) is nearer Kalimantan Selatan's point than Kalimantan Tengah's
    const km = (a: { lat: number | null; lng: number | null }) => Math.hypot((a.lat ?? 0) + 3.3194, ((a.lng ?? 0) - 114.5908) * Math.cos(0.058));
    expect(km(kalsel)).toBeLessThan(km(byId.get("62")!));
    expect(kalsel.lat).toBeCloseTo(-3.0, 0);
    expect(byId.get("72.06.20")?.lat).not.toBeNull();
  });
});

describe("postal codes", () => {
  it("every current kelurahan/desa has a 5-digit postal code; retired codes have none", () => {
    const villages = seed.rows.filter((r) => r.level === "kelurahan");
    const active = villages.filter((r) => r.isActive === 1);
    expect(active).toHaveLength(83_762);
    expect(active.every((r) => /^\d{5}$/.test(r.postalCode ?? ""))).toBe(true);
    expect(villages.filter((r) => r.isActive === 0).every((r) => r.postalCode === null)).toBe(true);
    expect(seed.rows.filter((r) => r.level !== "kelurahan").every((r) => r.postalCode === null)).toBe(true);
    expect(seed.manifest.postalCodes).toEqual({ filled: 83_762, distinct: 10_632 });
    expect(seed.rows.find((r) => r.id === "32.73.09.1001")?.postalCode).toBe("40114");
  });

  it("rejects a malformed row, naming it", () => {
    expect(() => parsePostalCodes("code,postal_code\n32.73.09.1001,4011\n")).toThrow(/line 2/);
    expect(() => parsePostalCodes("kode,kodepos\n")).toThrow(/line 1/);
  });
});

describe("islands (pulau)", () => {
  it("holds the 17,373 islands of idn-area-data 4.x with decimal coordinates", () => {
    const active = seed.islands.filter((i) => i.isActive === 1);
    expect(active).toHaveLength(17_373);
    expect(seed.islands.every((i) => i.lat !== null && i.lat >= -11.5 && i.lat <= 6.5 && i.lng! >= 94.5 && i.lng! <= 141.5)).toBe(true);
    // 11.01.40001 Pulau Batukapal: 03°19'03.44" N 097°07'41.73" E
    expect(seed.islands.find((i) => i.id === "11.01.40001")).toMatchObject({ name: "Pulau Batukapal", lat: 3.317622, lng: 97.128258, kabupatenId: "11.01" });
  });

  it("applies the four 2430/2025 moves from Tapanuli Tengah (12.01) to Aceh Singkil (11.10); old codes retired", () => {
    const byId = new Map(seed.islands.map((i) => [i.id, i]));
    for (const [oldCode, newCode, name] of [
      ["12.01.40013", "11.10.40081", "Pulau Lipan"],
      ["12.01.40015", "11.10.40082", "Pulau Mangkir Gadang"],
      ["12.01.40016", "11.10.40083", "Pulau Mangkir Ketek"],
      ["12.01.40019", "11.10.40084", "Pulau Panjang"],
    ]) {
      expect(byId.get(newCode)).toMatchObject({ name, kabupatenId: "11.10", provinsiId: "11", isActive: 1, replacedBy: null });
      expect(byId.get(oldCode)).toMatchObject({ name, kabupatenId: "12.01", provinsiId: "12", isActive: 0, replacedBy: newCode });
      expect(byId.get(newCode)!.lat).toBe(byId.get(oldCode)!.lat);
    }
    expect(seed.manifest.pulau).toEqual({ active: 17_373, inactive: 4, moved: 4 });
    expect(seed.manifest.dataVersion).toMatch(/2138\/2025.*2430\/2025/);
  });
});

describe("boundaries in the seed", () => {
  it("holds every provinsi, kabupaten/kota and kecamatan boundary; kelurahan's are loaded from their source", () => {
    expect(seed.manifest.boundaries).toMatchObject({ provinsi: 38, kabupaten: 514, kecamatan: 7285 });
    expect(seed.sql).toContain("INSERT INTO wilayah_grid");
    expect(seed.sql).not.toMatch(/INSERT INTO wilayah_shape \(id, part, level, data\) VALUES \('\d{2}\.\d{2}\.\d{2}\.\d{4}'/);
  });
});

describe("population and area (seed/sources/wilayah-population.csv, wilayah-area.csv)", () => {
  it("every provinsi and kabupaten/kota has both; no other level has them", () => {
    expect(seed.manifest.stats).toEqual({ population: 552, area: 552 });
    expect(seed.rows.find((r) => r.id === "32.73")?.stats).toEqual({ male: 1_298_551, female: 1_293_212, total: 2_591_763, areaKm2: 166.593 });
    expect(seed.rows.filter((r) => r.level === "kecamatan" || r.level === "kelurahan").every((r) => r.stats === undefined)).toBe(true);
    expect(seed.sql).toContain("population_male, population_female, population_total, area_km2");
  });

  it("rejects a malformed row or a total that is not male + female, naming it", () => {
    expect(parseStats("code,male,female,total\r\n32,1,2,3\r\n", "code,area_km2\r\n32,1.5\r\n").get("32")).toEqual({
      male: 1,
      female: 2,
      total: 3,
      areaKm2: 1.5,
    });
    expect(() => parseStats("code,male,female,total\n32,1,2,4\n", "code,area_km2\n")).toThrow(/32: male \+ female/);
    expect(() => parseStats("code,male,female,total\n32.73.09,1,2,3\n", "code,area_km2\n")).toThrow(/line 2/);
    expect(() => parseStats("code,male,female,total\n", "code,area\n")).toThrow(/header/);
  });
});

describe("neighbours and the space tables in the seed", () => {
  it("holds the provinsi, kabupaten/kota and kecamatan borders; the villages' go to seed/neighbours-kelurahan.csv.gz", () => {
    expect(seed.manifest.neighbours).toEqual({ provinsi: 38, kabupaten: 990, kecamatan: 18_811, kelurahan: 229_408 });
    expect(seed.sql).toContain("DELETE FROM wilayah_neighbor WHERE level = 3;");
    expect(seed.sql).not.toContain("DELETE FROM wilayah_neighbor WHERE level = 4;");
    expect(seed.sql).toContain("INSERT INTO wilayah_point");
    expect(seed.sql).toContain("INSERT OR REPLACE INTO wilayah_coverage");
  });
});

describe("search index (scripts/seed/search-index.ts)", () => {
  it("adds the curated aliases of seed/aliases.csv and the Jakarta cities' kind spellings", () => {
    const byId = new Map(seed.rows.map((r) => [r.id, r]));
    expect(byId.get("31.74")?.aliases).toEqual(expect.arrayContaining(["Jaksel", "Kota Jakarta Selatan"]));
    expect(byId.get("73.71")?.former).toContain("Ujung Pandang"); // kind `former`: searched, marked former
    expect(seed.sql).toContain("INSERT INTO wilayah_postal (postal, r) VALUES");
    // The typo vocabulary ships with the Worker (seed/vocabulary.json), not in D1.
    expect(seed.sql).not.toContain("wilayah_vocab");
    const words = (JSON.parse(seed.vocabulary) as { text: string }).text.split("\n");
    expect(words.length).toBeGreaterThan(40_000);
    expect(words).toContain("bandung\t71"); // 70 regions by their current names, one more by a name of an earlier edition
  });
});

describe("region history in the seed (scripts/seed/history.ts)", () => {
  it("prints the resolution report with these figures (a change in the method shows here)", () => {
    const r = seed.history;
    expect(r.editions.map((e) => [e.id, ...e.counts])).toEqual([
      ["2015", 34, 514, 7160, 83184],
      ["2017", 34, 514, 7201, 83436],
      ["2020", 34, 514, 7230, 83449],
      ["2022", 34, 514, 7266, 83467],
      ["2022b", 37, 514, 7277, 83763],
      ["2025", 38, 514, 7285, 83762],
    ]);
    expect([r.totalCodes, r.notCurrent]).toEqual([99_133, 7_534]);
    const sum = (f: (x: (typeof r.rows)[number]) => number) => r.rows.reduce((n, x) => n + f(x), 0);
    expect([sum((x) => x.one), sum((x) => x.several), sum((x) => x.none)]).toEqual([7_421, 1, 112]);
    expect(r.events).toEqual({ created: 845, retired: 112, renamed: 4228, recoded: 7413, split: 0, merged: 12 });
    expect(renderReport(r)).toContain("  all                7,421 / 1 / 112 (7,534)");
    // the region tables' retired codes that no edition holds: 18 villages of Papua Barat Daya, each with its namesake
    expect(seed.orphans.codes).toHaveLength(18);
    expect(seed.orphans.resolved).toBe(18);
    expect(seed.manifest.history).toEqual({
      editions: ["2015", "2017", "2020", "2022", "2022b", "2025"],
      codes: 99_133,
      notCurrent: 7_552,
      successors: 7_441,
      changes: 12_610,
      formerNames: 4_236, // names that only write the current name with a short form (Pekan Tg. Beringin) are left to the name readings
    });
  });

  it("loads its tables with the seed (emptied first) and indexes former names for search", () => {
    for (const t of ["wilayah_edition", "wilayah_history", "wilayah_successor", "wilayah_change", "wilayah_former"]) {
      expect(seed.sql).toContain(`DELETE FROM ${t};`);
      expect(seed.sql).toContain(`INSERT INTO ${t} (`);
    }
    const byId = new Map(seed.rows.map((r) => [r.id, r]));
    // Pasangkayu was Mamuju Utara until 2017; Makassar's curated former name
    expect(byId.get("76.01")?.former).toEqual(["Kabupaten MAMUJU UTARA", "MAMUJU UTARA"]);
    expect(byId.get("73.71")?.former).toContain("Ujung Pandang");
    expect(byId.get("73.71")?.aliases).not.toContain("Ujung Pandang");
  });
});

describe("corrections (seed/corrections.csv, scripts/seed/corrections.ts)", () => {
  it("a build with corrections applies them over the sources, seeds wilayah_corrections, and is a new checksum; without, none", async () => {
    expect(seed.manifest.corrections).toEqual({ applied: 0, skipped: 0 });
    expect(seed.sql).toContain("DELETE FROM wilayah_corrections;\n");
    const corrected = await otherBuild();
    const byId = new Map(corrected.rows.map((r) => [r.id, r]));
    expect(byId.get("32.73.09.1001")?.postalCode).toBe("40199");
    expect(byId.get("32.73.09")).toMatchObject({ name: "Bandung Wetan Raya", former: expect.arrayContaining(["Bandung Wetan"]) });
    expect(corrected.sql).toContain(
      "INSERT OR REPLACE INTO wilayah_corrections (report_id, region_id, level, field, value_before, value, basis, accepted_at) VALUES ('rpt_postal', '32.73.09.1001', 4, 'postal_code', '40114', '40199', 'Perwal Bandung 1/2026', '2026-11-28T01:00:00.000Z');",
    );
    expect(corrected.sql).toMatch(/INSERT INTO kelurahan \([^)]*\) VALUES [^\n]*\('32\.73\.09\.1001',[^)]*'40199'/);
    expect(corrected.manifest.corrections).toEqual({ applied: 2, skipped: 1 });
    expect(corrected.skippedCorrections.map((c) => c.reportId)).toEqual(["rpt_parent"]);
    expect(corrected.manifest.checksum).not.toBe(seed.manifest.checksum);
  }, 300_000); // the whole seed build otherBuild shares with the coordinates test
});
