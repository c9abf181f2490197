import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildSeed, parseCoords, type SeedResult } from "../../scripts/build-seed";

const root = join(import.meta.dirname, "..", "..");
const require = createRequire(import.meta.url);
const packageData = (pkg: string, file: string) => join(dirname(require.resolve(`${pkg}/package.json`)), "data", file);

/** Data rows of a package CSV, counted independently of the package's own parser. */
function csvRows(pkg: string, file: string): string[] {
  const lines = readFileSync(packageData(pkg, file), "utf8").split(/\r?\n/).slice(1);
  return lines.filter((l) => l.trim() !== "").map((l) => l.slice(0, l.indexOf(",")));
}

const CENTROIDS = join(root, "..", "shared", "data", "wilayah-centroids.csv");

let seed: SeedResult;
beforeAll(async () => {
  seed = await buildSeed();
});

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
    expect(byId.get("12.74")?.aliases).toContain("KOTA TANJUNG BALAI");
    expect(byId.get("31")).toMatchObject({ name: "Daerah Khusus Ibukota Jakarta", altName: "DKI Jakarta" });
    expect(byId.get("31.74")).toMatchObject({ altName: "Jakarta Selatan", type: "kota" });
    expect(byId.get("31.01")).toMatchObject({ altName: "Kepulauan Seribu", type: "kabupaten" });
    expect(seed.rows.every((r) => r.lat === null && r.lng === null)).toBe(true);
  });

  it("renders statements that stay under D1's 100 KB statement limit, and is deterministic", async () => {
    const longest = Math.max(...seed.sql.split("\n").map((l) => Buffer.byteLength(l)));
    expect(longest).toBeLessThan(100_000);
    expect((await buildSeed()).manifest.checksum).toBe(seed.manifest.checksum);
  });

  it("the committed seed is the one the build produces", () => {
    const committed = JSON.parse(readFileSync(join(root, "seed", "manifest.json"), "utf8"));
    expect(committed.checksum).toBe(seed.manifest.checksum);
    expect(readFileSync(join(root, "seed", "wilayah.sql"), "utf8")).toBe(seed.sql);
  });
});

describe("coordinates import (--coords)", () => {
  it("fills lat/lng from the shared centroids CSV and leaves unknown codes null", async () => {
    const withCoords = await buildSeed({ coordsCsv: readFileSync(CENTROIDS, "utf8") });
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
});

describe("search index (scripts/search-index.ts)", () => {
  it("adds the curated aliases of seed/aliases.csv and the Jakarta cities' kind spellings", () => {
    const byId = new Map(seed.rows.map((r) => [r.id, r]));
    expect(byId.get("31.74")?.aliases).toEqual(expect.arrayContaining(["Jaksel", "Kota Jakarta Selatan"]));
    expect(byId.get("73.71")?.aliases).toContain("Ujung Pandang");
    expect(seed.sql).toContain("INSERT INTO wilayah_postal (postal, r) VALUES");
    expect(seed.sql).toContain("INSERT INTO wilayah_vocab (w, n) VALUES");
  });
});
