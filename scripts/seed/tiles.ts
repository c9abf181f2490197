/**
 * Vector tiles of the four levels (GET /tiles/{z}/{x}/{y}.mvt, src/tiles/): built from the
 * boundaries the seed already has (seed/sources/wilayah-boundaries-<level>.csv.gz) and the region
 * rows of seed/wilayah.sql, sliced and simplified per zoom by @maplibre/geojson-vt, encoded by
 * @maplibre/vt-pbf, gzipped, and written as one PMTiles v3 archive (src/tiles/archive.ts), then
 * uploaded to the R2 bucket EXPORTS under the tiles' id (src/tiles/files.ts). Built once per seed
 * into .wrangler/tiles/<layout>/<id>/ and reused, like the bulk exports (scripts/seed/exports.ts).
 *
 *   npm run seed:tiles                      # local R2 (npm run dev and the browser suite do this when needed)
 *   npm run seed:tiles -- --remote          # the deployed bucket (npm run deploy does it when needed: docs/deploy.md)
 *   npm run seed:tiles -- --out DIR         # only build, into DIR (prints the tile sizes)
 *   TILES_DIR=DIR npm run seed:tiles        # upload the archive built in DIR to the local R2
 *
 * WRANGLER_PERSIST_TO=DIR uploads to that local state instead of .wrangler/state (as scripts/dev.ts).
 *
 * Layers: one per level (polygons: code, name, level, parent codes; provinsi and kabupaten/kota also
 * population, area and density, for the map's choropleth) from the level's first zoom
 * (LEVEL_MINZOOM), and `label` (a point per region at the API's lat/lng). Tiles are walked depth
 * first from 0/0/0, descending only into tiles that hold a province: the parts of the pyramid over
 * open sea are never visited. geojson-vt keeps every tile it sliced; a subtree's tiles are dropped
 * from its cache once written, so memory stays near one copy of the source.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { gzipSync } from "node:zlib";
import { GeoJSONVT, type GeoJSONVTTile } from "@maplibre/geojson-vt";
import { fromGeojsonVt } from "@maplibre/vt-pbf";
import { COMPRESSION, layoutArchive, TILE_TYPE, type TileBytes, zxyToTileId } from "../../src/tiles/archive.ts";
import {
  LABEL_LAYER,
  LAYER_FIELDS,
  LEVEL_MINZOOM,
  TILE_EXTENT,
  TILES_ATTRIBUTION,
  TILES_FILE,
  TILES_LAYOUT,
  TILES_MAXZOOM,
  type TilesMetadata,
  tilesId,
  tilesKey,
} from "../../src/tiles/files.ts";
import { LEVELS, type Level, parentAt } from "../../src/wilayah/codes.ts";
import { decodeShape, encodeRings, toMultiPolygon } from "../../src/wilayah/geo/geometry.ts";
import { isMain, root, seedDirArg, wrangler } from "../lib.ts";
import { readBoundaries } from "./boundary-sql.ts";
import { bucketName } from "./exports.ts";
import { currentListCodes } from "./history-editions.ts";

type SeedManifest = { dataVersion: string; checksum: string; boundaries: { kelurahan: { checksum: string } } };
const seedManifest = (seedDir: string): SeedManifest => JSON.parse(readFileSync(join(seedDir, "manifest.json"), "utf8"));

/** A region as the tiles carry it. */
type Region = { id: string; level: Level; name: string; lat: number | null; lng: number | null; type?: string; population?: number; areaKm2?: number };

/**
 * The active regions of each level, read from seed/wilayah.sql (the rows D1 holds) into an
 * in-memory SQLite: seconds, where the seed build that wrote them takes a minute and more.
 */
export function readRegions(seedDir: string): Map<string, Region> {
  const db = new DatabaseSync(":memory:");
  const columns: Record<Level, string> = {
    provinsi: "id, code, name, alt_name, lat, lng, is_active, population_male, population_female, population_total, area_km2",
    kabupaten: "id, code, name, alt_name, lat, lng, is_active, provinsi_id, type, population_male, population_female, population_total, area_km2",
    kecamatan: "id, code, name, alt_name, lat, lng, is_active, kabupaten_id",
    kelurahan: "id, code, name, alt_name, lat, lng, is_active, kecamatan_id, postal_code",
  };
  for (const level of LEVELS) db.exec(`CREATE TABLE ${level} (${columns[level]})`);
  const wanted = new Set(LEVELS.map((l) => `INSERT INTO ${l} (${columns[l]})`));
  for (const line of readFileSync(join(seedDir, "wilayah.sql"), "utf8").split("\n")) {
    const head = line.slice(0, line.indexOf(")") + 1);
    if (wanted.has(head)) db.exec(line);
  }
  const out = new Map<string, Region>();
  for (const level of LEVELS) {
    const stats = level === "provinsi" || level === "kabupaten";
    const rows = db.prepare(`SELECT * FROM ${level} WHERE is_active = 1`).all() as Record<string, string | number | null>[];
    for (const r of rows) {
      const region: Region = { id: r.id as string, level, name: r.name as string, lat: r.lat as number | null, lng: r.lng as number | null };
      if (level === "kabupaten" && r.type) region.type = r.type as string;
      if (stats && r.population_total != null) region.population = r.population_total as number;
      if (stats && r.area_km2 != null) region.areaKm2 = r.area_km2 as number;
      out.set(region.id, region);
    }
  }
  db.close();
  return out;
}

/** The numeric feature id MVT wants (an unsigned integer): the undotted code. */
const featureId = (code: string) => Number(code.replaceAll(".", ""));

function properties(r: Region): Record<string, string | number> {
  const p: Record<string, string | number> = { code: r.id, name: r.name, level: r.level };
  for (const parent of LEVELS.slice(0, LEVELS.indexOf(r.level))) p[`${parent}_id`] = parentAt(r.id, parent);
  if (r.type) p.type = r.type;
  if (r.population != null) p.population = r.population;
  if (r.areaKm2 != null) p.area_km2 = r.areaKm2;
  if (r.population != null && r.areaKm2) p.density = Math.round((r.population / r.areaKm2) * 10) / 10;
  return p;
}

export type TilesOptions = {
  /** Only regions this keeps (tests: a few areas); marks the archive partial. */
  filter?: (level: Level, id: string) => boolean;
  /** Deepest zoom (tests may stop earlier); default TILES_MAXZOOM. */
  maxZoom?: number;
};

export type TilesReport = {
  tiles_id: string;
  file: string;
  bytes: number;
  tiles: number;
  contents: number;
  seconds: number;
  /** gzipped bytes per tile (what is stored and sent), and the largest tile before gzip. */
  gzip: { median: number; p99: number; max: number };
  raw: { median: number; max: number; maxTile: string };
  per_zoom: Record<number, { tiles: number; median: number; max: number }>;
};

const index = (features: object[], maxZoom: number) =>
  new GeoJSONVT({ type: "FeatureCollection", features } as ConstructorParameters<typeof GeoJSONVT>[0], {
    maxZoom,
    extent: TILE_EXTENT,
    // Tile units (1/4096 of a tile side): 3 keeps village borders within a few metres at z12;
    // higher zooms draw the z12 tiles.
    tolerance: 3,
    buffer: 64,
    wrap: false,
    indexMaxZoom: 4,
  });

/** geojson-vt's cache of sliced tiles (not public API: dropped per subtree to bound memory). */
const cacheOf = (vt: GeoJSONVT) => (vt as unknown as { tileIndex: { tiles: Record<string, unknown> } }).tileIndex.tiles;
const cacheId = (z: number, x: number, y: number) => ((1 << z) * y + x) * 32 + z;

/**
 * Builds the archive into `dir` and returns what was built (sizes per zoom). Deterministic: the same
 * seed gives the same bytes (gzip without a timestamp, tiles in id order).
 */
export function buildTiles(seedDir: string, dir: string, opts: TilesOptions = {}): TilesReport {
  const t0 = Date.now();
  const seed = seedManifest(seedDir);
  const id = tilesId(seed);
  const maxZoom = opts.maxZoom ?? TILES_MAXZOOM;
  const regions = readRegions(seedDir);
  const listed = currentListCodes(seedDir);
  const keep = (level: Level, code: string) =>
    regions.has(code) && (!listed || level !== "kelurahan" || listed.has(code)) && (!opts.filter || opts.filter(level, code));

  const polygons = {} as Record<Level, GeoJSONVT>;
  const labels: object[] = [];
  for (const level of LEVELS) {
    const features: object[] = [];
    for (const b of readBoundaries(seedDir, level)) {
      if (!keep(level, b.id)) continue;
      const r = regions.get(b.id) as Region;
      features.push({
        type: "Feature",
        id: featureId(b.id),
        properties: properties(r),
        geometry: { type: "MultiPolygon", coordinates: toMultiPolygon(decodeShape(encodeRings(b.rings))) },
      });
    }
    polygons[level] = index(features, maxZoom);
    for (const r of regions.values()) {
      if (r.level !== level || r.lat == null || r.lng == null || !keep(level, r.id)) continue;
      labels.push({
        type: "Feature",
        id: featureId(r.id),
        properties: { code: r.id, name: r.name, level, minzoom: LEVEL_MINZOOM[level] },
        geometry: { type: "Point", coordinates: [r.lng, r.lat] },
      });
    }
  }
  const labelIndex = index(labels, maxZoom);

  const tiles: TileBytes[] = [];
  const raw: { size: number; z: number; name: string }[] = [];
  let west = 180;
  let south = 90;
  let east = -180;
  let north = -90;
  const visit = (z: number, x: number, y: number) => {
    const province = polygons.provinsi.getTile(z, x, y);
    if (!province || province.features.length === 0) return;
    const layers: Record<string, GeoJSONVTTile> = {};
    for (const level of LEVELS) {
      if (z < LEVEL_MINZOOM[level]) continue;
      const t = level === "provinsi" ? province : polygons[level].getTile(z, x, y);
      if (t?.features.length) layers[level] = t;
    }
    const label = labelIndex.getTile(z, x, y);
    if (label) {
      // Only labels of the levels this zoom shows; a point's tile must hold it inside (not in the buffer), so a label is drawn once.
      const inside = label.features.filter((f) => {
        // A point's geometry: [[x, y]] (as geojson-vt's tiles hold it; its types also allow [x, y]).
        const g = f.geometry as unknown as number[] | number[][];
        const [px, py] = (Array.isArray(g[0]) ? g[0] : g) as number[];
        return (f.tags?.minzoom as number) <= z && px >= 0 && py >= 0 && px < TILE_EXTENT && py < TILE_EXTENT;
      });
      if (inside.length)
        layers[LABEL_LAYER] = {
          ...label,
          features: inside.map(({ tags, ...f }) => ({ ...f, tags: { code: tags?.code, name: tags?.name, level: tags?.level } })),
        } as unknown as GeoJSONVTTile;
    }
    const pbf = fromGeojsonVt(layers, { version: 2, extent: TILE_EXTENT });
    const data = gzipSync(pbf, { level: 9 });
    tiles.push({ tileId: zxyToTileId(z, x, y), data, hash: createHash("sha256").update(data).digest("hex") });
    raw.push({ size: pbf.length, z, name: `${z}/${x}/${y}` });
    if (z === maxZoom) {
      const n = 2 ** z;
      west = Math.min(west, (x / n) * 360 - 180);
      east = Math.max(east, ((x + 1) / n) * 360 - 180);
      const lat = (v: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * v) / n))) * 180) / Math.PI;
      north = Math.max(north, lat(y));
      south = Math.min(south, lat(y + 1));
    }
    if (z < maxZoom)
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ])
        visit(z + 1, 2 * x + dx, 2 * y + dy);
    if (z > 4) for (const vt of [...Object.values(polygons), labelIndex]) delete cacheOf(vt)[cacheId(z, x, y)];
  };
  visit(0, 0, 0);

  const vectorLayers = [
    ...LEVELS.map((level) => ({
      id: level,
      fields: LAYER_FIELDS[level],
      minzoom: LEVEL_MINZOOM[level],
      maxzoom: maxZoom,
      description: `${level} boundaries (polygons)`,
    })),
    {
      id: LABEL_LAYER,
      fields: LAYER_FIELDS.label,
      minzoom: 0,
      maxzoom: maxZoom,
      description: "A point per region at its centroid, from its level's first zoom",
    },
  ];
  const metadata: TilesMetadata = {
    name: "Wilayah API boundaries",
    format: "pbf",
    attribution: TILES_ATTRIBUTION,
    description: `Indonesia's administrative boundaries by level (${seed.dataVersion})${opts.filter ? " (partial build)" : ""}`,
    version: TILES_LAYOUT,
    tiles_id: id,
    data_version: seed.dataVersion,
    vector_layers: vectorLayers,
  };
  const bounds: [number, number, number, number] = [west, south, east, north];
  const parts = layoutArchive(tiles, metadata, {
    minZoom: 0,
    maxZoom,
    bounds,
    center: [118, -2.5, 4],
    tileCompression: COMPRESSION.gzip,
    tileType: TILE_TYPE.mvt,
  });
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = join(dir, TILES_FILE);
  writeFileSync(file, Buffer.concat(parts));

  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)] ?? 0;
  const gz = sorted(tiles.map((t) => t.data.length));
  const largest = raw.reduce((m, r) => (r.size > m.size ? r : m), { size: 0, z: 0, name: "" });
  const perZoom: TilesReport["per_zoom"] = {};
  for (let z = 0; z <= maxZoom; z++) {
    const sizes = tiles.filter((_, i) => raw[i].z === z).map((t) => t.data.length);
    perZoom[z] = { tiles: sizes.length, median: median(sizes), max: Math.max(0, ...sizes) };
  }
  const report: TilesReport = {
    tiles_id: id,
    file: TILES_FILE,
    bytes: statSync(file).size,
    tiles: tiles.length,
    contents: new Set(tiles.map((t) => t.hash)).size,
    seconds: Math.round((Date.now() - t0) / 100) / 10,
    gzip: { median: median(gz), p99: gz[Math.floor(gz.length * 0.99)] ?? 0, max: gz[gz.length - 1] ?? 0 },
    raw: { median: median(raw.map((r) => r.size)), max: largest.size, maxTile: largest.name },
    per_zoom: perZoom,
  };
  writeFileSync(join(dir, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

/** The archive id of the seed in `seedDir` (its checksums): a new seed is a new archive. */
export const seedTilesId = (seedDir: string) => tilesId(seedManifest(seedDir));

/** The archive of the seed in `seedDir`, built once into .wrangler/tiles/<layout>/<id>/ and reused while intact. */
export function currentTiles(seedDir: string, opts: { background?: boolean } = {}): { dir: string; report: TilesReport } {
  const id = seedTilesId(seedDir);
  const dir = join(root, ".wrangler", "tiles", TILES_LAYOUT, id);
  const reportPath = join(dir, "report.json");
  if (existsSync(reportPath)) {
    const report = JSON.parse(readFileSync(reportPath, "utf8")) as TilesReport;
    if (existsSync(join(dir, TILES_FILE)) && statSync(join(dir, TILES_FILE)).size === report.bytes) return { dir, report };
  }
  console.log(
    opts.background
      ? `Background: building the vector tiles (${id}; a few minutes on a first start). Until they are uploaded, the map and GET /tiles/... answer 503; every other call answers now.`
      : `Building the vector tiles (${id}: four levels, zooms 0-${TILES_MAXZOOM}; a few minutes)...`,
  );
  const report = buildTiles(seedDir, dir);
  console.log(
    `${opts.background ? "Background: v" : "V"}ector tiles built in ${report.seconds} s: ${report.tiles} tiles, ${(report.bytes / 1e6).toFixed(0)} MB in ${dir.slice(root.length + 1)} (gzipped tile median ${(report.gzip.median / 1024).toFixed(1)} KB, largest ${(report.gzip.max / 1024).toFixed(0)} KB).`,
  );
  return { dir, report };
}

/**
 * The object beside the archive that says it is whole: its build report, put after the archive, so
 * a bucket holding it holds this archive (`npm run deploy` reads it to skip an unchanged upload).
 */
export const tilesReportKey = (id: string) => tilesKey(id).replace(TILES_FILE, "report.json");

/** Uploads the archive to the deployed bucket with `wrangler r2 object put --remote`, then its report. */
export function uploadRemoteTiles(dir: string, report: TilesReport): void {
  const bucket = bucketName();
  console.log(`Uploading ${TILES_FILE} (${(report.bytes / 1e6).toFixed(0)} MB) to ${bucket}/${tilesKey(report.tiles_id)}`);
  wrangler(
    ["r2", "object", "put", `${bucket}/${tilesKey(report.tiles_id)}`, "--remote", "--file", join(dir, TILES_FILE), "--content-type", "application/vnd.pmtiles"],
    {
      capture: true,
    },
  );
  const file = join(root, ".wrangler", "tmp", "tiles-report.json");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(report));
  wrangler(["r2", "object", "put", `${bucket}/${tilesReportKey(report.tiles_id)}`, "--remote", "--file", file, "--content-type", "application/json"], {
    capture: true,
  });
}

/** Uploads the archive to the local R2 of a state unless the bucket already holds one of the same size. */
export async function uploadLocalTiles(dir: string, report: TilesReport, persistTo?: string): Promise<boolean> {
  const { getPlatformProxy } = await import("wrangler");
  const statePath = join(persistTo ?? join(root, ".wrangler", "state"), "v3");
  const config = join(root, ".wrangler", "tmp", "tiles-upload.json");
  mkdirSync(join(root, ".wrangler", "tmp"), { recursive: true });
  writeFileSync(
    config,
    JSON.stringify({ name: "wilayah-tiles-upload", compatibility_date: "2026-08-01", r2_buckets: [{ binding: "EXPORTS", bucket_name: bucketName() }] }),
  );
  const proxy = await getPlatformProxy<{ EXPORTS: R2Bucket }>({ configPath: config, persist: { path: statePath }, remoteBindings: false });
  try {
    const key = tilesKey(report.tiles_id);
    const held = await proxy.env.EXPORTS.head(key);
    if (held && held.size === report.bytes) return false;
    await proxy.env.EXPORTS.put(key, readFileSync(join(dir, TILES_FILE)), { httpMetadata: { contentType: "application/vnd.pmtiles" } });
    return true;
  } finally {
    await proxy.dispose();
  }
}

/**
 * For scripts/dev.ts: the current archive in the local R2 of this state (built first when needed).
 * TILES_DIR=DIR uploads an archive already built there instead (the browser suite's small one,
 * test/setup/tiles-subset.ts: the whole build takes about 90 s and 2.6 GB).
 */
export async function ensureLocalTiles(seedDir: string, persistTo?: string, opts: { background?: boolean } = {}): Promise<void> {
  const given = process.env.TILES_DIR;
  const { dir, report } = given
    ? { dir: given, report: JSON.parse(readFileSync(join(given, "report.json"), "utf8")) as TilesReport }
    : currentTiles(seedDir, opts);
  const t0 = Date.now();
  if (await uploadLocalTiles(dir, report, persistTo)) {
    console.log(
      `${opts.background ? "Background: v" : "V"}ector tiles uploaded to the local R2 in ${((Date.now() - t0) / 1000).toFixed(1)} s${opts.background ? ": the map draws them now." : "."}`,
    );
  }
}

async function main() {
  const args = process.argv.slice(2);
  const seedDir = seedDirArg(args);
  const at = args.indexOf("--out");
  if (at >= 0) {
    if (!args[at + 1]) throw new Error("--out needs a folder");
    console.log(JSON.stringify(buildTiles(seedDir, args[at + 1]), null, 2));
    return;
  }
  if (args.includes("--remote")) {
    const { dir, report } = currentTiles(seedDir);
    uploadRemoteTiles(dir, report);
    return;
  }
  await ensureLocalTiles(seedDir, process.env.WRANGLER_PERSIST_TO);
}

if (isMain(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
