/**
 * Seed SQL for the space tables (migrations/0014_wilayah_space.sql): the centroid pyramid that
 * `/nearby` walks, the coverage report, and the kelurahan/desa neighbours' file. Everything but
 * the neighbours is computed inside SQLite from the loaded tables, so it describes what is loaded
 * and adds little to the SQL files.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { LEVELS, type Level } from "../../src/wilayah/codes.ts";
import { COVERAGE_FIELDS, type CoverageField, FIELD_LEVELS } from "../../src/wilayah/coverage/fields.ts";
import { POINT_CELL, POINT_FANOUT, POINT_ORIGIN, POINT_TOP } from "../../src/wilayah/nearby/grid.ts";
import type { NeighbourRow } from "./borders.ts";

const levelNumber = (level: Level) => LEVELS.indexOf(level) + 1;

/**
 * `wilayah_point`: every current region with coordinates in its fine cell (`res` -1), then the
 * occupied cells of each pyramid step with their south-west corner (`res` 0 .. POINT_TOP), by the
 * formulas of src/wilayah/nearby/grid.ts (every coordinate is north and east of the origin, so the
 * cast is the floor).
 */
export function pointSql(): string {
  let out = "DELETE FROM wilayah_point;\n";
  for (const level of LEVELS) {
    const n = levelNumber(level);
    const size = POINT_CELL[level];
    out += `INSERT INTO wilayah_point (level, res, cell, id, lat, lng) SELECT ${n}, -1, CAST((lat - (${POINT_ORIGIN.lat})) / ${size} AS INTEGER) * 10000 + CAST((lng - (${POINT_ORIGIN.lng})) / ${size} AS INTEGER), id, lat, lng FROM ${level} WHERE is_active = 1 AND lat IS NOT NULL;\n`;
    for (let res = 0; res <= POINT_TOP[level]; res++) {
      const cellSize = size * POINT_FANOUT ** res;
      const cell = res === 0 ? "cell" : `(cell / 10000 / ${POINT_FANOUT}) * 10000 + (cell % 10000) / ${POINT_FANOUT}`;
      out += `INSERT INTO wilayah_point (level, res, cell, id, lat, lng) SELECT ${n}, ${res}, c, '', ${POINT_ORIGIN.lat} + (c / 10000) * ${cellSize}, ${POINT_ORIGIN.lng} + (c % 10000) * ${cellSize} FROM (SELECT DISTINCT ${cell} AS c FROM wilayah_point WHERE level = ${n} AND res = ${res - 1});\n`;
    }
  }
  return out;
}

/** SQL: a current region `r` of the level lacks the field. */
const MISSING: Record<CoverageField, string> = {
  coordinates: "r.lat IS NULL",
  boundary: "NOT EXISTS (SELECT 1 FROM wilayah_bbox b WHERE b.id = r.id)",
  postal_code: "r.postal_code IS NULL",
  population: "r.population_total IS NULL",
  area: "r.area_km2 IS NULL",
  // a BPS code leading to the region (src/wilayah/bps); loaded before this report
  bps_code: "NOT EXISTS (SELECT 1 FROM wilayah_bps x WHERE x.current_id = r.id)",
};

/** Every field at every level it applies to. */
export const ALL_COVERAGE: [CoverageField, Level][] = COVERAGE_FIELDS.flatMap((f) => FIELD_LEVELS[f].map((l) => [f, l] as [CoverageField, Level]));

/** Rebuilds `wilayah_gap` and `wilayah_coverage` for these (field, level) pairs from the loaded tables. */
export function coverageSql(pairs: [CoverageField, Level][] = ALL_COVERAGE): string {
  let out = "";
  for (const [field, level] of pairs) {
    const n = levelNumber(level);
    out += `DELETE FROM wilayah_gap WHERE field = '${field}' AND level = ${n};\n`;
    out += `INSERT INTO wilayah_gap (field, level, id) SELECT '${field}', ${n}, r.id FROM ${level} r WHERE r.is_active = 1 AND ${MISSING[field]};\n`;
    out += `INSERT OR REPLACE INTO wilayah_coverage (level, field, regions, covered) SELECT ${n}, '${field}', count(*), count(*) - (SELECT count(*) FROM wilayah_gap WHERE field = '${field}' AND level = ${n}) FROM ${level} WHERE is_active = 1;\n`;
  }
  return out;
}

/** The kelurahan/desa neighbours of a seed directory, written by the seed build and loaded with the village boundaries. */
export const kelurahanNeighboursFile = (seedDir: string) => join(seedDir, "neighbours-kelurahan.csv.gz");

const HEADER = "id,neighbor_id,shared_border_km";

/** The file's text: one line per border (id < neighbor_id), the table holds both directions. */
export function neighboursCsv(rows: NeighbourRow[]): Buffer {
  const lines = rows.filter((r) => r.id < r.neighborId).map((r) => `${r.id},${r.neighborId},${r.sharedBorderKm}`);
  return gzipSync(`${HEADER}\n${lines.join("\n")}\n`, { level: 9 });
}

/** Both directions of every border in the file (as rows of level 4), sorted like `neighbourRows`. */
export function readKelurahanNeighbours(file: string): NeighbourRow[] {
  const lines = gunzipSync(readFileSync(file)).toString("utf8").split("\n");
  if (lines[0] !== HEADER) throw new Error(`${file}: line 1 must be "${HEADER}"`);
  const rows: NeighbourRow[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i]) continue;
    const [id, neighborId, km] = lines[i].split(",");
    const sharedBorderKm = Number(km);
    if (!/^\d{2}\.\d{2}\.\d{2}\.\d{4}$/.test(id) || !/^\d{2}\.\d{2}\.\d{2}\.\d{4}$/.test(neighborId) || !(sharedBorderKm > 0)) {
      throw new Error(`${file}: line ${i + 1} ("${lines[i]}") is not id,neighbor_id,km`);
    }
    rows.push({ id, neighborId, level: 4, sharedBorderKm }, { id: neighborId, neighborId: id, level: 4, sharedBorderKm });
  }
  return rows.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : x.neighborId < y.neighborId ? -1 : x.neighborId > y.neighborId ? 1 : 0));
}
