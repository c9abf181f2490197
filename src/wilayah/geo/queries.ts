/**
 * Boundary and reverse-geocoding reads (tables `wilayah_shape`, `wilayah_bbox`, `wilayah_grid`, see
 * src/db/schema.ts). Raw SQL through a minimal runner, so the node-side quality test runs these very
 * queries on a SQLite copy of the full data (test/node/reverse-quality.test.ts).
 */
import { regionReads } from "../../db/client";
import type { Level } from "../codes";
import { GRID_CELL, gridCell, gridCells } from "./geometry";

export type SqlValue = string | number | null;
export type SqlRunner = { all<T>(sql: string, params: SqlValue[]): Promise<T[]> };

/** The wilayah tables change only with a seed: read them where a read replica may serve them (regionReads). */
export function d1Runner(env: Env): SqlRunner {
  const db = regionReads(env);
  return {
    async all<T>(sql: string, params: SqlValue[]) {
      return (await db.prepare(sql).bind(...params).all<T>()).results;
    },
  };
}

export type ShapeRow = { id: string; data: string };

export async function findShape(db: SqlRunner, id: string): Promise<{ data: string; bbox: [number, number, number, number] } | null> {
  const rows = await db.all<{ data: string; min_lng: number; min_lat: number; max_lng: number; max_lat: number }>(
    "SELECT s.data, b.min_lng, b.min_lat, b.max_lng, b.max_lat FROM wilayah_shape s JOIN wilayah_bbox b ON b.id = s.id WHERE s.id = ? ORDER BY s.part",
    [id],
  );
  if (!rows.length) return null;
  const b = rows[0];
  return { data: rows.map((r) => r.data).join(""), bbox: [b.min_lng, b.min_lat, b.max_lng, b.max_lat] };
}

/**
 * Villages whose bounding box holds the point, with their boundary and their place (names and
 * parents) in the same round trip, so the usual answer costs one query.
 */
export async function candidateVillages(db: SqlRunner, lng: number, lat: number): Promise<(ShapeRow & { place: PlaceRow })[]> {
  const cell = gridCell(lng, lat, GRID_CELL.kelurahan);
  const rows = await db.all<{ id: string; data: string } & PlaceRow>(
    `SELECT s.id, s.data, k.id AS kelurahan_id, k.name AS kelurahan, k.postal_code, ${PLACE_COLUMNS.replace("FROM kecamatan c", "FROM wilayah_grid g JOIN wilayah_shape s ON s.id = g.id JOIN kelurahan k ON k.id = g.id JOIN kecamatan c ON c.id = k.kecamatan_id")}
     WHERE g.level = 4 AND g.cell = ? AND g.min_lng <= ? AND g.max_lng >= ? AND g.min_lat <= ? AND g.max_lat >= ?
     ORDER BY s.id, s.part`,
    [cell, lng, lng, lat, lat],
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

const PLACE_COLUMNS = `c.id AS kecamatan_id, c.name AS kecamatan, b.id AS kabupaten_id, b.name AS kabupaten, p.id AS provinsi_id, p.name AS provinsi
  FROM kecamatan c JOIN kabupaten b ON b.id = c.kabupaten_id JOIN provinsi p ON p.id = b.provinsi_id`;

/**
 * Kecamatan whose bounding box comes within `margin` degrees of the point (the grid cells of that
 * margin box), each with its boundary, its parents and its active village whose centroid is
 * nearest the point: the fallback answer in one round trip.
 */
export async function nearbyKecamatan(db: SqlRunner, lng: number, lat: number, margin: number): Promise<(ShapeRow & { place: PlaceRow })[]> {
  const cells = gridCells(lng - margin, lat - margin, lng + margin, lat + margin, GRID_CELL.kecamatan);
  const k = Math.cos((lat * Math.PI) / 180) ** 2; // a degree of longitude is shorter away from the equator
  const rows = await db.all<{ id: string; data: string } & PlaceRow>(
    `WITH cand AS (
       SELECT DISTINCT g.id FROM wilayah_grid g WHERE g.level = 3 AND g.cell IN (${cells.map(() => "?").join(", ")})
       AND g.min_lng <= ? AND g.max_lng >= ? AND g.min_lat <= ? AND g.max_lat >= ?),
     near AS (
       SELECT cand.id, (SELECT v.id FROM kelurahan v WHERE v.kecamatan_id = cand.id AND v.is_active = 1 AND v.lat IS NOT NULL
                        ORDER BY (v.lat - ?) * (v.lat - ?) + (v.lng - ?) * (v.lng - ?) * ?, v.id LIMIT 1) AS village FROM cand)
     SELECT s.id, s.data, v.id AS kelurahan_id, v.name AS kelurahan, v.postal_code, ${PLACE_COLUMNS.replace("FROM kecamatan c", "FROM near JOIN wilayah_shape s ON s.id = near.id JOIN kecamatan c ON c.id = near.id")}
     LEFT JOIN kelurahan v ON v.id = near.village
     ORDER BY s.id, s.part`,
    [...cells, lng + margin, lng - margin, lat + margin, lat - margin, lat, lat, lng, lng, k],
  );
  return withPlaces(rows);
}

export const LEVEL_TABLE: Record<Level, string> = { provinsi: "provinsi", kabupaten: "kabupaten", kecamatan: "kecamatan", kelurahan: "kelurahan" };

export async function regionName(db: SqlRunner, level: Level, id: string): Promise<string | undefined> {
  const rows = await db.all<{ name: string }>(`SELECT name FROM ${LEVEL_TABLE[level]} WHERE id = ?`, [id]);
  return rows[0]?.name;
}
