/**
 * Boundary and reverse-geocoding reads (tables `wilayah_shape`, `wilayah_bbox`, `wilayah_grid`, see
 * src/db/schema.ts). The node-side quality test runs these very queries on a SQLite copy of the full
 * data through a D1 shim (test/node/reverse-quality.test.ts).
 */
import { type SQL, sql } from "drizzle-orm";
import { batch, type RegionDb } from "../../db/client";
import type { Level } from "../codes";
import { GRID_CELL, gridCell, gridCells } from "./geometry";

export type ShapeRow = { id: string; data: string };

export async function findShape(db: RegionDb, id: string): Promise<{ data: string; bbox: [number, number, number, number] } | null> {
  const rows = await db.all<{ data: string; min_lng: number; min_lat: number; max_lng: number; max_lat: number }>(
    sql`SELECT s.data, b.min_lng, b.min_lat, b.max_lng, b.max_lat FROM wilayah_shape s JOIN wilayah_bbox b ON b.id = s.id WHERE s.id = ${id} ORDER BY s.part`,
  );
  if (!rows.length) return null;
  const b = rows[0];
  return { data: rows.map((r) => r.data).join(""), bbox: [b.min_lng, b.min_lat, b.max_lng, b.max_lat] };
}

/** A region's bounding box [west, south, east, north], or null without a boundary (one row of `wilayah_bbox`). */
export async function findBbox(db: RegionDb, id: string): Promise<[number, number, number, number] | null> {
  const [b] = await db.all<{ min_lng: number; min_lat: number; max_lng: number; max_lat: number }>(
    sql`SELECT min_lng, min_lat, max_lng, max_lat FROM wilayah_bbox WHERE id = ${id}`,
  );
  return b ? [b.min_lng, b.min_lat, b.max_lng, b.max_lat] : null;
}

export type PlaceRow = {
  kelurahan_id: string | null;
  kelurahan: string | null;
  postal_code: string | null;
  kecamatan_id: string;
  kecamatan: string;
  kabupaten_id: string;
  kabupaten: string;
  provinsi_id: string;
  provinsi: string;
};

/** The place columns of a kecamatan `c` and its parents; `from` names the tables that bring `c` in. */
const placeColumns = (from: string) =>
  sql.raw(`c.id AS kecamatan_id, c.name AS kecamatan, b.id AS kabupaten_id, b.name AS kabupaten, p.id AS provinsi_id, p.name AS provinsi
  FROM ${from} JOIN kabupaten b ON b.id = c.kabupaten_id JOIN provinsi p ON p.id = b.provinsi_id`);

/**
 * Villages whose bounding box holds the point, with their boundary and their place (names and
 * parents) in the same round trip, so the usual answer costs one query.
 */
export async function candidateVillages(db: RegionDb, lng: number, lat: number): Promise<(ShapeRow & { place: PlaceRow })[]> {
  const cell = gridCell(lng, lat, GRID_CELL.kelurahan);
  const rows = await db.all<{ id: string; data: string } & PlaceRow>(
    sql`SELECT s.id, s.data, k.id AS kelurahan_id, k.name AS kelurahan, k.postal_code, ${placeColumns("wilayah_grid g JOIN wilayah_shape s ON s.id = g.id JOIN kelurahan k ON k.id = g.id JOIN kecamatan c ON c.id = k.kecamatan_id")}
     WHERE g.level = 4 AND g.cell = ${cell} AND g.min_lng <= ${lng} AND g.max_lng >= ${lng} AND g.min_lat <= ${lat} AND g.max_lat >= ${lat}
     ORDER BY s.id, s.part`,
  );
  return withPlaces(rows);
}

/** Rows of one id arrive in `part` order: join their data, keep one place. */
function withPlaces(rows: ({ id: string; data: string } & PlaceRow)[]): (ShapeRow & { place: PlaceRow })[] {
  const out: (ShapeRow & { place: PlaceRow })[] = [];
  for (const { id, data, ...place } of rows) {
    const last = out.at(-1);
    if (last && last.id === id) last.data += data;
    else out.push({ id, data, place });
  }
  return out;
}

/**
 * Kecamatan whose bounding box comes within `margin` degrees of the point (the grid cells of that
 * margin box), each with its boundary, its parents and its active village whose centroid is
 * nearest the point: the fallback answer in one round trip.
 */
export async function nearbyKecamatan(db: RegionDb, lng: number, lat: number, margin: number): Promise<(ShapeRow & { place: PlaceRow })[]> {
  const cells = gridCells(lng - margin, lat - margin, lng + margin, lat + margin, GRID_CELL.kecamatan);
  const k = Math.cos((lat * Math.PI) / 180) ** 2; // a degree of longitude is shorter away from the equator
  const cellList: SQL = sql.join(
    cells.map((c) => sql`${c}`),
    sql`, `,
  );
  const rows = await db.all<{ id: string; data: string } & PlaceRow>(
    sql`WITH cand AS (
       SELECT DISTINCT g.id FROM wilayah_grid g WHERE g.level = 3 AND g.cell IN (${cellList})
       AND g.min_lng <= ${lng + margin} AND g.max_lng >= ${lng - margin} AND g.min_lat <= ${lat + margin} AND g.max_lat >= ${lat - margin}),
     near AS (
       SELECT cand.id, (SELECT v.id FROM kelurahan v WHERE v.kecamatan_id = cand.id AND v.is_active = 1 AND v.lat IS NOT NULL
                        ORDER BY (v.lat - ${lat}) * (v.lat - ${lat}) + (v.lng - ${lng}) * (v.lng - ${lng}) * ${k}, v.id LIMIT 1) AS village FROM cand)
     SELECT s.id, s.data, v.id AS kelurahan_id, v.name AS kelurahan, v.postal_code, ${placeColumns("near JOIN wilayah_shape s ON s.id = near.id JOIN kecamatan c ON c.id = near.id")}
     LEFT JOIN kelurahan v ON v.id = near.village
     ORDER BY s.id, s.part`,
  );
  return withPlaces(rows);
}

const LEVEL_TABLE: Record<Level, string> = { provinsi: "provinsi", kabupaten: "kabupaten", kecamatan: "kecamatan", kelurahan: "kelurahan" };

export async function regionName(db: RegionDb, level: Level, id: string): Promise<string | undefined> {
  const rows = await db.all<{ name: string }>(sql`SELECT name FROM ${sql.raw(LEVEL_TABLE[level])} WHERE id = ${id}`);
  return rows[0]?.name;
}

// ---------------------------------------------------------------- features: a level's regions with their boundaries (OGC API – Features)

/** Columns of a feature's record per level, as stored (population flat), aliased `t`. */
const FEATURE_COLUMNS: Record<Level, string> = {
  provinsi: "t.id, t.name, t.alt_name, t.lat, t.lng, t.population_male, t.population_female, t.population_total, t.area_km2",
  kabupaten: "t.id, t.name, t.alt_name, t.lat, t.lng, t.type, t.population_male, t.population_female, t.population_total, t.area_km2",
  kecamatan: "t.id, t.name, t.alt_name, t.lat, t.lng",
  kelurahan: "t.id, t.name, t.alt_name, t.lat, t.lng, t.postal_code",
};

export type FeatureRow = {
  id: string;
  name: string;
  alt_name: string;
  lat: number | null;
  lng: number | null;
  type?: string;
  postal_code?: string | null;
  population_male?: number | null;
  population_female?: number | null;
  population_total?: number | null;
  area_km2?: number | null;
};

/**
 * Which current regions of a level a feature query selects: an ancestor's code (an id prefix: a
 * range of the primary key), the name (SQL LIKE, case-insensitive; `%` and `_` already escaped with
 * `\` by the caller), kabupaten/kota `type`, kelurahan/desa `postal_code`, one `id`, and a box
 * ([minLng, minLat, maxLng, maxLat]) that the region's bounding box must intersect.
 */
export type FeatureFilter = {
  ancestor?: string;
  namePattern?: string;
  type?: string;
  postalCode?: string;
  id?: string;
  bbox?: [number, number, number, number];
};

const LEVEL_NUMBER: Record<Level, number> = { provinsi: 1, kabupaten: 2, kecamatan: 3, kelurahan: 4 };

/**
 * The ids a filter selects, as a subquery. A box on kecamatan and kelurahan/desa reads the candidate
 * index `wilayah_grid` one row of cells at a time (a range of its primary key per row), not the
 * level's every box; the 38 provinsi and 514 kabupaten/kota are few enough to read their boxes.
 */
function matchingIds(level: Level, f: FeatureFilter): SQL {
  const t = sql.raw(LEVEL_TABLE[level]);
  const where: SQL[] = [sql`t.is_active = 1`];
  if (f.ancestor !== undefined) where.push(sql`t.id > ${`${f.ancestor}.`} AND t.id < ${`${f.ancestor}/`}`);
  if (f.id !== undefined) where.push(sql`t.id = ${f.id}`);
  if (f.namePattern !== undefined) where.push(sql`t.name LIKE ${f.namePattern} ESCAPE '\\'`);
  if (f.type !== undefined) where.push(sql`t.type = ${f.type}`);
  if (f.postalCode !== undefined) where.push(sql`t.postal_code = ${f.postalCode}`);
  const conditions = sql.join(where, sql` AND `);
  if (!f.bbox) return sql`SELECT t.id FROM ${t} t WHERE ${conditions}`;
  const [minLng, minLat, maxLng, maxLat] = f.bbox;
  const boxHits = (b: string) => sql.raw(`${b}.min_lng <= ${maxLng} AND ${b}.max_lng >= ${minLng} AND ${b}.min_lat <= ${maxLat} AND ${b}.max_lat >= ${minLat}`);
  if (level === "provinsi" || level === "kabupaten") {
    return sql`SELECT t.id FROM wilayah_bbox b JOIN ${t} t ON t.id = b.id WHERE b.level = ${LEVEL_NUMBER[level]} AND ${boxHits("b")} AND ${conditions}`;
  }
  const size = GRID_CELL[level];
  const first = gridCell(minLng, minLat, size);
  const last = gridCell(maxLng, maxLat, size);
  const rows: [number, number][] = [];
  for (let row = Math.floor(first / 10_000); row <= Math.floor(last / 10_000); row++)
    rows.push([row * 10_000 + (first % 10_000), row * 10_000 + (last % 10_000)]);
  return sql`SELECT DISTINCT g.id FROM json_each(${JSON.stringify(rows)}) r
    JOIN wilayah_grid g ON g.level = ${LEVEL_NUMBER[level]} AND g.cell BETWEEN json_extract(r.value, '$[0]') AND json_extract(r.value, '$[1]')
    JOIN ${t} t ON t.id = g.id WHERE ${boxHits("g")} AND ${conditions}`;
}

/**
 * One page of a level's features in id order (keyset: ids after `after`), and how many the filter
 * selects in all: one batch. Boxes must lie inside the grid's origin (the caller clips them to Indonesia).
 */
export async function featureRows(
  db: RegionDb,
  level: Level,
  f: FeatureFilter,
  page: { after?: string; limit: number },
): Promise<{ matched: number; rows: FeatureRow[] }> {
  const ids = matchingIds(level, f);
  const [counted, rows] = await batch(db, [
    sql`SELECT count(*) AS n FROM (${ids})`,
    sql`SELECT ${sql.raw(FEATURE_COLUMNS[level])} FROM ${sql.raw(LEVEL_TABLE[level])} t
      WHERE t.id IN (SELECT id FROM (${ids}) WHERE id > ${page.after ?? ""} ORDER BY id LIMIT ${page.limit}) ORDER BY t.id`,
  ]);
  return { matched: (counted.results[0] as { n: number } | undefined)?.n ?? 0, rows: rows.results as FeatureRow[] };
}

/** The stored boundaries (and boxes) of some regions, by id: one statement, one bound parameter whatever their number. */
export async function shapesOf(db: RegionDb, ids: string[]): Promise<Map<string, { data: string; bbox: [number, number, number, number] }>> {
  const rows = await db.all<{ id: string; data: string; min_lng: number; min_lat: number; max_lng: number; max_lat: number }>(
    sql`SELECT s.id, s.data, b.min_lng, b.min_lat, b.max_lng, b.max_lat FROM json_each(${JSON.stringify(ids)}) j
      JOIN wilayah_shape s ON s.id = j.value JOIN wilayah_bbox b ON b.id = s.id ORDER BY s.id, s.part`,
  );
  const out = new Map<string, { data: string; bbox: [number, number, number, number] }>();
  for (const r of rows) {
    const held = out.get(r.id);
    if (held) held.data += r.data;
    else out.set(r.id, { data: r.data, bbox: [r.min_lng, r.min_lat, r.max_lng, r.max_lat] });
  }
  return out;
}

/** The box of every boundary of a level, as one: [west, south, east, north] (null when none is loaded). */
export async function levelExtent(db: RegionDb, level: Level): Promise<[number, number, number, number] | null> {
  const rows = await db.all<{ w: number | null; s: number; e: number; n: number }>(
    sql`SELECT min(min_lng) AS w, min(min_lat) AS s, max(max_lng) AS e, max(max_lat) AS n FROM wilayah_bbox WHERE level = ${LEVEL_NUMBER[level]}`,
  );
  const r = rows[0];
  return r && r.w !== null ? [r.w, r.s, r.e, r.n] : null;
}
