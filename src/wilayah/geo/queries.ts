/**
 * Boundary and reverse-geocoding reads (tables `wilayah_shape`, `wilayah_bbox`, `wilayah_grid`, see
 * src/db/schema.ts). The node-side quality test runs these very queries on a SQLite copy of the full
 * data through a D1 shim (test/node/reverse-quality.test.ts).
 */
import { type SQL, sql } from "drizzle-orm";
import type { RegionDb } from "../../db/client";
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
