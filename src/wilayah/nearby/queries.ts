/**
 * Nearest centroids (table `wilayah_point`, see grid.ts and migrations/0014_wilayah_space.sql), in
 * one statement: a best-first walk of the cell pyramid. SQLite's recursive CTE with an ORDER BY is
 * a priority queue: it pops the entry nearest the point (a cell by the great-circle distance from
 * the point to the nearest point of the cell, a centroid by its own distance), pushes a popped
 * cell's occupied children, and the outer LIMIT stops the walk at the `limit`-th centroid popped.
 * A cell is never nearer than what it holds, so centroids come out in distance order and the answer
 * is exact; the walk reads only cells nearer than the answer's last centroid and their children, at
 * any distance (docs/performance.md, "Nearby"). Cells farther than the radius are not opened.
 *
 * Needs SQLite's math functions (D1 has them). The node-side quality test runs this statement on a
 * copy of the full data (test/node/space-quality.test.ts).
 */
import { type SQL, sql } from "drizzle-orm";
import { batch, type RegionDb } from "../../db/client";
import { LEVELS, type Level } from "../codes";
import { lackingCountSql } from "../coverage/queries";
import { POINT_CELL, POINT_FANOUT, POINT_TOP } from "./grid";

/** Mean Earth radius (IUGG), km. */
export const EARTH_KM = 6371.0088;

export type NearRow = { id: string; name: string; parent: string | null; lat: number; lng: number; d: number };

/** The square of an SQL expression (D1 refuses `power`; a product needs no extra function). */
const square = (e: string) => `(${e}) * (${e})`;

/** Great-circle distance (haversine) from the point `k` to (lat, lng), both SQL expressions. */
const haversine = (lat: string, lng: string) =>
  `2 * ${EARTH_KM} * asin(min(1, sqrt(${square(`sin(radians(${lat} - k.lat) / 2)`)} + k.clat * cos(radians(${lat})) * ${square(`sin(radians(${lng} - k.lng) / 2)`)})))`;

/**
 * Great-circle distance from the point to the nearest point of cell `c` (south-west corner c.lat,
 * c.lng; side z degrees). Within the cell's meridians: along the meridian. Otherwise the nearest
 * point lies on the nearer meridian edge, where the distance has one minimum, at the foot of the
 * perpendicular from the point (latitude atan(tan φ / cos Δλ)), clamped to the edge.
 */
function cellDistance(z: string): string {
  const edge = `(CASE WHEN k.lng < c.lng THEN c.lng ELSE c.lng + ${z} END)`;
  const foot = `max(c.lat, min(c.lat + ${z}, degrees(atan(k.tlat / cos(radians(${edge} - k.lng))))))`;
  return `(CASE WHEN k.lng BETWEEN c.lng AND c.lng + ${z} THEN ${EARTH_KM} * radians(max(c.lat - k.lat, k.lat - c.lat - ${z}, 0)) ELSE ${haversine(foot, edge)} END)`;
}

const CHILD_FIRST = `((q.cell / 10000) * ${POINT_FANOUT} + o.i) * 10000 + (q.cell % 10000) * ${POINT_FANOUT}`;

/** Name, parent names (nearest first) and joins per level, for the answer's rows; CROSS JOIN keeps the hits outermost (else SQLite may walk a whole level to probe them). */
const NAMES: Record<Level, { joins: string; parent: string }> = {
  provinsi: { joins: "CROSS JOIN provinsi r ON r.id = hits.id", parent: "NULL" },
  kabupaten: { joins: "CROSS JOIN kabupaten r ON r.id = hits.id CROSS JOIN provinsi p ON p.id = r.provinsi_id", parent: "p.name" },
  kecamatan: {
    joins: "CROSS JOIN kecamatan r ON r.id = hits.id CROSS JOIN kabupaten b ON b.id = r.kabupaten_id CROSS JOIN provinsi p ON p.id = b.provinsi_id",
    parent: "b.name || ', ' || p.name",
  },
  kelurahan: {
    joins:
      "CROSS JOIN kelurahan r ON r.id = hits.id CROSS JOIN kecamatan c ON c.id = r.kecamatan_id CROSS JOIN kabupaten b ON b.id = c.kabupaten_id CROSS JOIN provinsi p ON p.id = b.provinsi_id",
    parent: "c.name || ', ' || b.name || ', ' || p.name",
  },
};

/** The statement: the `limit` centroids of `level` nearest the point, within `radiusKm`, with names. */
export function nearestSql(level: Level, lat: number, lng: number, limit: number, radiusKm: number): SQL {
  const r = Math.PI / 180;
  const z = `(k.f * (1 << (${Math.log2(POINT_FANOUT)} * c.res)))`;
  const names = NAMES[level];
  // c: the candidate row (a cell or a centroid); the walk: pop the nearest, push its children.
  return sql`WITH RECURSIVE
k(lat, lng, clat, tlat, lvl, f, radius) AS (SELECT ${lat}, ${lng}, ${Math.cos(lat * r)}, ${Math.tan(lat * r)}, ${LEVELS.indexOf(level) + 1}, ${POINT_CELL[level]}, ${radiusKm}),
o(i) AS (VALUES ${sql.raw(Array.from({ length: POINT_FANOUT }, (_, i) => `(${i})`).join(", "))}),
q(res, cell, id, lat, lng, d) AS (
  SELECT c.res, c.cell, c.id, c.lat, c.lng, ${sql.raw(cellDistance(z))} FROM k CROSS JOIN wilayah_point c ON c.level = k.lvl AND c.res = ${POINT_TOP[level]}
  UNION ALL
  SELECT c.res, c.cell, c.id, c.lat, c.lng, CASE WHEN c.res < 0 THEN ${sql.raw(haversine("c.lat", "c.lng"))} ELSE ${sql.raw(cellDistance(z))} END
  FROM q CROSS JOIN k CROSS JOIN o CROSS JOIN wilayah_point c
    ON c.level = k.lvl AND c.res = q.res - 1
    AND c.cell BETWEEN (CASE WHEN q.res = 0 THEN q.cell ELSE ${sql.raw(CHILD_FIRST)} END)
                   AND (CASE WHEN q.res = 0 THEN q.cell ELSE ${sql.raw(CHILD_FIRST)} + ${POINT_FANOUT - 1} END)
  WHERE q.res >= 0 AND q.d <= k.radius AND (q.res > 0 OR o.i = 0)
  ORDER BY 6, 1 DESC, 3
),
hits AS (SELECT id, lat, lng, d FROM q WHERE res < 0 AND d <= ${radiusKm} LIMIT ${limit})
SELECT hits.id, r.name, ${sql.raw(names.parent)} AS parent, hits.lat, hits.lng, hits.d FROM hits ${sql.raw(names.joins)}
ORDER BY hits.d, hits.id`;
}

/** The nearest centroids, and how many current regions of the level have none (left out): one round trip. */
export async function nearest(
  db: RegionDb,
  level: Level,
  lat: number,
  lng: number,
  limit: number,
  radiusKm: number,
): Promise<{ rows: NearRow[]; withoutCoordinates: number }> {
  const [rows, lacking] = await batch(db, [nearestSql(level, lat, lng, limit, radiusKm), lackingCountSql(level, "coordinates")]);
  return { rows: rows.results as NearRow[], withoutCoordinates: (lacking.results as { n: number }[])[0]?.n ?? 0 };
}
