/**
 * Neighbours (table `wilayah_neighbor`, migrations/0014_wilayah_space.sql; one row per direction):
 * a region's row range, with the neighbours' names, and whether the region has a boundary.
 */
import { sql } from "drizzle-orm";
import { batch, type RegionDb } from "../../db/client";
import type { Level } from "../codes";

export type NeighborRow = { id: string; name: string; shared_border_km: number };

/** The region's name and whether a boundary is loaded for it (undefined: no such region), and its neighbours, largest border first: one round trip. */
export async function neighborsOf(db: RegionDb, level: Level, id: string): Promise<{ region?: { name: string; boundary: boolean }; rows: NeighborRow[] }> {
  // `level` is one of four fixed table names, never user text.
  const table = sql.raw(level);
  const [region, rows] = await batch(db, [
    sql`SELECT r.name, EXISTS (SELECT 1 FROM wilayah_bbox b WHERE b.id = r.id) AS boundary FROM ${table} r WHERE r.id = ${id}`,
    sql`SELECT n.neighbor_id AS id, r.name, n.shared_border_km FROM wilayah_neighbor n CROSS JOIN ${table} r ON r.id = n.neighbor_id
        WHERE n.id = ${id} ORDER BY n.shared_border_km DESC, n.neighbor_id`,
  ]);
  const found = (region.results as { name: string; boundary: number }[])[0];
  return { region: found && { name: found.name, boundary: found.boundary === 1 }, rows: rows.results as NeighborRow[] };
}
