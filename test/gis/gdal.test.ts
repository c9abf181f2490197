/**
 * GDAL, a real GIS client, against the Worker (issue 53): its OGC API – Features driver (OAPIF)
 * lists the four collections, reads Kota Bandung's kecamatan through a property filter and a bbox,
 * pages through every provinsi, and its FlatGeobuf driver reads an export by URL (/vsicurl/) with a
 * bbox, by range requests, fetching a small part of the file. The exceptions a GIS user meets
 * (missing key, bad bbox, unknown collection, limit over the maximum) come back in the OGC exception
 * format. The commands are the ones the guide "QGIS and GDAL" gives (docs/api.md). Also measured
 * here, on the whole data: the largest pages of items (bytes and time) and the FlatGeobuf files'
 * sizes, written to test/.generated/gis-figures.json for docs/performance.md.
 */
import type { ChildProcess } from "node:child_process";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib.ts";
import { MAX_LIMIT, PAGE_BYTES } from "../../src/ogc/service.ts";
import guides from "../../src/site/guides.json" with { type: "json" };
import { exportId, LAYOUT } from "../../src/wilayah/export/files.ts";
import { startWorker, stopWorker } from "../browser/local.ts";
import { assertGdal, GIS_PORT, GIS_STATE, gdal, ORIGIN, prepareGisState } from "./local.ts";

const OGC = `${ORIGIN}/ogc`;
/** Kota Bandung's box (CRS84). */
const BANDUNG = ["107.55", "-6.98", "107.75", "-6.85"];
let key: string;
let worker: ChildProcess | undefined;
const output = { text: "" };
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  figures.gdal = assertGdal();
  key = prepareGisState();
  worker = await startWorker(output, { port: GIS_PORT, state: GIS_STATE });
});

afterAll(() => {
  stopWorker(worker);
  mkdirSync(join(root, "test", ".generated"), { recursive: true });
  writeFileSync(join(root, "test", ".generated", "gis-figures.json"), `${JSON.stringify(figures, null, 2)}\n`);
  console.log(JSON.stringify(figures, null, 2));
});

const header = () => ({ GDAL_HTTP_HEADERS: `x-api-key: ${key}` });

/** Features of a GeoJSON ogr2ogr wrote to stdout. */
const featuresOf = (stdout: string) => JSON.parse(stdout).features as { properties: Record<string, unknown> }[];

describe("GDAL's OGC API – Features driver (OAPIF)", () => {
  it("ogrinfo lists the four collections", () => {
    const r = gdal("ogrinfo", ["-ro", `OAPIF:${OGC}`], header());
    expect(r.status, r.stderr).toBe(0);
    for (const [i, level] of ["provinsi", "kabupaten", "kecamatan", "kelurahan"].entries()) expect(r.stdout).toMatch(new RegExp(`^${i + 1}: ${level}\\b`, "m"));
  });

  it("ogr2ogr reads Kota Bandung's 30 kecamatan through a property filter and a bbox", () => {
    const r = gdal("ogr2ogr", ["-f", "GeoJSON", "/vsistdout/", `OAPIF:${OGC}`, "kecamatan", "-where", "kabupaten_id = '32.73'", "-spat", ...BANDUNG], header());
    expect(r.status, r.stderr).toBe(0);
    const features = featuresOf(r.stdout);
    expect(features).toHaveLength(30);
    expect(features.every((f) => f.properties.kabupaten_id === "32.73")).toBe(true);
    expect(features.map((f) => f.properties.name)).toContain("Bandung Wetan");
  });

  it("ogr2ogr pages through every provinsi (10 a page), the key as the api_key parameter", () => {
    const r = gdal("ogr2ogr", ["-f", "CSV", "/vsistdout/", `OAPIF:${OGC}?api_key=${key}`, "provinsi", "-oo", "PAGE_SIZE=10", "-select", "code,name"]);
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.trim().split("\n").slice(1);
    expect(rows).toHaveLength(38);
    expect(new Set(rows).size).toBe(38);
    expect(rows[0]).toBe('"11",Aceh');
    // The key went in the query of every request GDAL made (it adds the base URL's parameters back), never in an answer's link.
    expect(output.text).not.toContain(key);
  });

  it("a missing key: GDAL shows the 401's OGC exception", () => {
    const r = gdal("ogrinfo", ["-ro", `OAPIF:${OGC}`]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('"code":"MissingApiKey"');
    expect(r.stderr).toContain("api_key");
  });
});

describe("the guide's GDAL commands (QGIS and GDAL, `sh gdal`)", () => {
  it("each runs and succeeds against the Worker, the key and the origin filled in", () => {
    const samples = guides.samples.filter((s) => s.lang === "sh" && s.annotation === "gdal");
    expect(samples.length).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), "gis-guide-"));
    try {
      for (const s of samples) {
        const r = spawnSync("bash", ["-euo", "pipefail", "-c", s.code], {
          cwd: dir,
          encoding: "utf8",
          env: { ...process.env, KEY: key, BASE: ORIGIN },
          maxBuffer: 64 * 1024 * 1024,
        });
        expect(r.status, `${s.code}\n${r.stderr.slice(-2000)}`).toBe(0);
        if (s.code.includes('ogrinfo -ro "OAPIF:$BASE/ogc"\n')) expect(r.stdout).toMatch(/^1: provinsi/m);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the layer drawn (the guide's picture)", () => {
  it("GDAL reads Kota Bandung's villages from /ogc and draws them: test/.generated/gis-bandung.png", () => {
    const dir = mkdtempSync(join(tmpdir(), "gis-draw-"));
    const sh = (cmd: string) => {
      const r = spawnSync("bash", ["-euo", "pipefail", "-c", cmd], { cwd: dir, encoding: "utf8", env: { ...process.env, ...header(), OGC } });
      expect(r.status, `${cmd}\n${r.stderr.slice(-2000)}`).toBe(0);
      return r.stdout;
    };
    try {
      // The layers as a GIS user gets them: through the OAPIF driver, filtered at the server.
      sh(`ogr2ogr -f GPKG b.gpkg "OAPIF:$OGC" kelurahan -where "kabupaten_id = '32.73'" -nln vil`);
      sh("ogr2ogr -f GPKG -update b.gpkg b.gpkg vil -nln vil_lines -nlt MULTILINESTRING");
      // Villages filled by their kecamatan (six colours), then their borders. (The source's kecamatan
      // boundaries are far coarser than its villages', a median of 22 points: they are not drawn over them.)
      sh(
        `gdal_rasterize -q -sql "SELECT geom, (CAST(substr(kecamatan_id, 7, 2) AS INTEGER) % 6) + 1 AS cls FROM vil" -dialect SQLite -a cls -tr 0.00012 0.00012 -te 107.54 -6.98 107.75 -6.835 -init 0 -ot Byte b.gpkg map.tif`,
      );
      sh("gdal_rasterize -q -l vil_lines -burn 7 b.gpkg map.tif");
      writeFileSync(
        join(dir, "palette.txt"),
        ["0 247 245 239", "1 204 227 196", "2 250 221 176", "3 197 218 240", "4 240 204 214", "5 221 214 240", "6 236 236 190", "7 59 74 90"].join("\n"),
      );
      sh("gdaldem color-relief -q -nearest_color_entry -of PNG map.tif palette.txt map.png");
      const hist = JSON.parse(sh("gdalinfo -json -hist -stats map.tif")).bands[0].histogram;
      const counts = (hist.buckets as number[]).slice(0, 8);
      // Not a blank picture: the six fills and the village borders all drawn.
      for (let v = 1; v <= 7; v++) expect(counts[v], `value ${v} drawn`).toBeGreaterThan(100);
      mkdirSync(join(root, "test", ".generated"), { recursive: true });
      writeFileSync(join(root, "test", ".generated", "gis-bandung.png"), readFileSync(join(dir, "map.png")));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("GDAL's FlatGeobuf driver on an export, by URL", () => {
  it("ogrinfo /vsicurl/ with a bbox reads Kota Bandung's kecamatan by range requests, a small part of the file", () => {
    const url = `/vsicurl/${ORIGIN}/api/v1/wilayah/export/kecamatan.fgb?api_key=${key}`;
    const r = gdal("ogrinfo", ["-ro", "-q", url, "kecamatan", "-spat", ...BANDUNG, "-where", "kabupaten_id = '32.73'", "-fields=YES", "-geom=NO"], {
      CPL_DEBUG: "ON",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.match(/^OGRFeature\(kecamatan\)/gm)).toHaveLength(30);
    // Every byte GDAL fetched, from its own log of the ranges it asked for.
    const ranges = [...r.stderr.matchAll(/Downloading (\d+)-(\d+)/g)].map((m) => Number(m[2]) - Number(m[1]) + 1);
    const fetched = ranges.reduce((a, b) => a + b, 0);
    const size = Number(/Content-Length: (\d+)/i.exec(r.stderr)?.[1] ?? fgbSizes().kecamatan);
    figures.fgb_bbox_read = { file: "kecamatan.fgb", size, requests: ranges.length, bytes_fetched: fetched, ms: r.ms };
    expect(ranges.length).toBeGreaterThan(0);
    expect(fetched).toBeLessThan(size / 4);
  });
});

/** The FlatGeobuf files' sizes, from the export this state holds. */
function fgbSizes(): Record<string, number> {
  const seed = JSON.parse(readFileSync(join(root, "seed", "manifest.json"), "utf8"));
  const manifest = JSON.parse(readFileSync(join(root, ".wrangler", "exports", LAYOUT, exportId(seed), "manifest.json"), "utf8"));
  return Object.fromEntries(
    manifest.files.filter((f: { format: string }) => f.format === "fgb").map((f: { level: string; size: number }) => [f.level, f.size]),
  ) as Record<string, number>;
}

describe("the exceptions a GIS user meets, over real HTTP", () => {
  const get = (path: string, k: string | null = key) => fetch(`${ORIGIN}${path}`, { headers: k ? { "x-api-key": k } : {} });
  it("a bad bbox 400, an unknown collection 404, a limit over the maximum 400, a missing key 401", async () => {
    for (const [path, status, code, k] of [
      ["/ogc/collections/kecamatan/items?bbox=107.5,-6.9", 400, "InvalidParameterValue", key],
      ["/ogc/collections/desa/items", 404, "NotFound", key],
      [`/ogc/collections/kecamatan/items?limit=${MAX_LIMIT + 1}`, 400, "InvalidParameterValue", key],
      ["/ogc/collections/kecamatan/items", 401, "MissingApiKey", null],
    ] as const) {
      const res = await get(path, k);
      const body = (await res.json()) as { description: string };
      expect(res.status, path).toBe(status);
      expect(body, path).toMatchObject({ code, status });
      expect(body.description, path).toMatch(/\S/);
    }
  });
});

describe("figures on the whole data (docs/performance.md)", () => {
  it("the largest pages of items: bytes and time", async () => {
    const pages: { query: string; bytes: number; ms: number; returned: number }[] = [];
    const measure = async (query: string, follow = 3) => {
      let path: string | null = `/ogc/collections/${query}`;
      for (let i = 0; i < follow && path; i++) {
        const t0 = performance.now();
        const res = await fetch(`${ORIGIN}${path}`, { headers: { "x-api-key": key } });
        const text = await res.text();
        const ms = Math.round(performance.now() - t0);
        expect(res.status, text.slice(0, 200)).toBe(200);
        const page = JSON.parse(text);
        pages.push({ query: path, bytes: text.length, ms, returned: page.numberReturned });
        const next = page.links.find((l: { rel: string }) => l.rel === "next")?.href as string | undefined;
        path = next ? next.replace(ORIGIN, "") : null;
      }
    };
    await measure(`provinsi/items?limit=${MAX_LIMIT}&simplify=0`);
    await measure(`kelurahan/items?provinsi_id=94&limit=${MAX_LIMIT}&simplify=0`);
    await measure(`kelurahan/items?provinsi_id=94&limit=${MAX_LIMIT}`);
    await measure(`kelurahan/items?limit=${MAX_LIMIT}`);
    const largest = pages.reduce((m, p) => (p.bytes > m.bytes ? p : m));
    figures.pages = pages;
    figures.largest_page = largest;
    figures.fgb_sizes = fgbSizes();
    // One feature may pass the budget (a page holds at least one); the largest village boundary is far below 1 MB.
    expect(largest.bytes).toBeLessThan(PAGE_BYTES + 1_000_000);
  });
});
