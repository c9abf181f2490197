/**
 * SQL for region boundaries (tables `wilayah_shape`, `wilayah_bbox`, `wilayah_grid`; the storage
 * format is described in src/wilayah/geo/geometry.ts). Used by the seed build (provinsi, kabupaten/kota,
 * kecamatan: part of seed/wilayah.sql) and by scripts/seed/boundaries.ts (kelurahan/desa, built from the
 * compressed source when it is loaded, never committed as SQL).
 *
 * Source files: seed/sources/wilayah-boundaries-<level>.csv.gz, columns `code,polygon`, `polygon`
 * a JSON array of closed `[lng, lat]` rings (seed/sources/README.md).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { LEVELS, type Level, parentAt } from "../../src/wilayah/codes.ts";
import { encodeRings, GRID_CELL, GRID_SQL, type Ring } from "../../src/wilayah/geo/geometry.ts";
import { insertStatements } from "../lib.ts";

/** A seed directory's copied sources (seed/sources/README.md). */
export const sourcesDir = (seedDir: string) => join(seedDir, "sources");
export const boundarySource = (seedDir: string, level: Level) => join(sourcesDir(seedDir), `wilayah-boundaries-${level}.csv.gz`);

/** Format version of the stored boundaries: part of the load marker, so a new format reloads. */
export const SHAPE_FORMAT = "polyline5-v1";

/** D1 caps a statement at 100 KB: one boundary row's text stays below this (longer ones are split into parts). */
const MAX_PART_CHARS = 90_000;
/** Rows per INSERT, below the statement cap for typical rows. */
const MAX_STATEMENT_BYTES = 90_000;

export type Boundary = { id: string; rings: Ring[] };

/** Parses a `code,polygon` CSV (plain text). Throws naming the line on anything malformed. */
export function parseBoundaries(csv: string): Boundary[] {
  const lines = csv.split("\n");
  if (lines[0]?.trim() !== "code,polygon") throw new Error(`boundaries CSV: line 1 must be "code,polygon", got "${lines[0]?.slice(0, 40)}"`);
  const out: Boundary[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const comma = line.indexOf(",");
    const id = line.slice(0, comma);
    let json = line.slice(comma + 1);
    if (json.startsWith('"')) json = json.slice(1, -1).replaceAll('""', '"');
    let rings: Ring[];
    try {
      rings = JSON.parse(json) as Ring[];
    } catch {
      throw new Error(`boundaries CSV: line ${i + 1} (${id}): polygon is not JSON`);
    }
    if (!/^\d{2}(\.\d{2}(\.\d{2}(\.\d{4})?)?)?$/.test(id) || !Array.isArray(rings) || rings.length === 0) {
      throw new Error(`boundaries CSV: line ${i + 1} (${id}): bad code or empty polygon`);
    }
    out.push({ id, rings });
  }
  return out;
}

export const readBoundaries = (seedDir: string, level: Level): Boundary[] =>
  parseBoundaries(gunzipSync(readFileSync(boundarySource(seedDir, level))).toString("utf8"));

/**
 * The load marker's checksum for the kelurahan boundaries: their compressed source, the format, and
 * the village neighbours loaded with them (`neighbours`: the gzip file's bytes, seed/neighbours-kelurahan.csv.gz
 * as built; its text is hashed, not the compression).
 */
export function kelurahanBoundariesChecksum(seedDir: string, neighbours: Buffer): string {
  return createHash("sha256")
    .update(SHAPE_FORMAT)
    .update(readFileSync(boundarySource(seedDir, "kelurahan")))
    .update(gunzipSync(neighbours))
    .digest("hex")
    .slice(0, 16);
}

const inserts = (table: string, columns: string, tuples: Iterable<string>) => insertStatements(table, columns, tuples, MAX_STATEMENT_BYTES);

const q = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * Grid rows for one level, computed inside SQLite from `wilayah_bbox` (keeps the SQL small): every
 * cell of the box, by the same formula as `gridCell` in src/wilayah/geo/geometry.ts. `idFrom`/`idTo` bound
 * one statement's share (D1's 30 s per query): `'32' <= id < '32/'` is province 32.
 */
function gridSql(level: Level, size: number, idFrom: string, idTo: string): string {
  const n = LEVELS.indexOf(level) + 1;
  const row = (lat: string) => `CAST((${lat} - (${GRID_SQL.originLat})) / ${size} AS INTEGER)`;
  const col = (lng: string) => `CAST((${lng} - (${GRID_SQL.originLng})) / ${size} AS INTEGER)`;
  return `INSERT INTO wilayah_grid (level, cell, id, min_lng, min_lat, max_lng, max_lat)
WITH RECURSIVE b AS (SELECT id, ${row("min_lat")} AS r0, ${row("max_lat")} AS r1, ${col("min_lng")} AS c0, ${col("max_lng")} AS c1
FROM wilayah_bbox WHERE level = ${n} AND id >= ${q(idFrom)} AND id < ${q(idTo)}),
rs(id, r, r1, c0, c1) AS (SELECT id, r0, r1, c0, c1 FROM b UNION ALL SELECT id, r + 1, r1, c0, c1 FROM rs WHERE r < r1),
cs(id, r, c, c1) AS (SELECT id, r, c0, c1 FROM rs UNION ALL SELECT id, r, c + 1, c1 FROM cs WHERE c < c1)
SELECT ${n}, cs.r * 10000 + cs.c, cs.id, x.min_lng, x.min_lat, x.max_lng, x.max_lat FROM cs JOIN wilayah_bbox x ON x.id = cs.id;`.replaceAll("\n", " ");
}

/**
 * SQL that replaces one level's boundaries: delete, insert shapes and boxes, build the grid (for
 * kecamatan and kelurahan, the levels reverse geocoding reads). Deterministic for a given source.
 */
export function boundarySql(level: Level, boundaries: Boundary[]): string {
  const n = LEVELS.indexOf(level) + 1;
  const sorted = [...boundaries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let sql = `DELETE FROM wilayah_grid WHERE level = ${n};\nDELETE FROM wilayah_bbox WHERE level = ${n};\nDELETE FROM wilayah_shape WHERE level = ${n};\n`;
  const shapes: string[] = [];
  const boxes: string[] = [];
  for (const b of sorted) {
    const data = encodeRings(b.rings);
    for (let part = 0, at = 0; at < data.length; part++, at += MAX_PART_CHARS) {
      shapes.push(`(${q(b.id)},${part},${n},'${data.slice(at, at + MAX_PART_CHARS)}')`);
    }
    let minLng = Infinity;
    let minLat = Infinity;
    let maxLng = -Infinity;
    let maxLat = -Infinity;
    for (const ring of b.rings) {
      for (const [lng, lat] of ring) {
        if (lng < minLng) minLng = lng;
        if (lng > maxLng) maxLng = lng;
        if (lat < minLat) minLat = lat;
        if (lat > maxLat) maxLat = lat;
      }
    }
    boxes.push(`(${q(b.id)},${n},${minLng},${minLat},${maxLng},${maxLat})`);
  }
  sql += inserts("wilayah_shape", "id, part, level, data", shapes);
  sql += inserts("wilayah_bbox", "id, level, min_lng, min_lat, max_lng, max_lat", boxes);
  if (level === "kecamatan" || level === "kelurahan") {
    const size = GRID_CELL[level];
    // One statement per province: a few hundred thousand rows at most.
    const provinces = [...new Set(sorted.map((b) => parentAt(b.id, "provinsi")))];
    for (const p of provinces) sql += `${gridSql(level, size, p, `${p}/`)}\n`;
  }
  return sql;
}
