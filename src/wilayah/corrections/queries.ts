/**
 * The corrections the seed applied (src/wilayah/corrections owns `wilayah_corrections`, filled by the
 * seed build from seed/corrections.csv: scripts/seed/corrections.ts): read-only between seeds. The
 * changes list shows them as corrections; the provenance of a record can cite their basis.
 */
import { sql } from "drizzle-orm";
import { batch, type RegionDb } from "../../db/client";

export type CorrectionRow = {
  report_id: string;
  region_id: string;
  level: number;
  field: string;
  value_before: string | null;
  value: string;
  basis: string;
  accepted_at: string;
  /** The region's name now (after the correction). */
  name: string | null;
};

/** Every correction, in the order they were accepted: a handful (each one a report a person accepted). */
export async function correctionRows(db: RegionDb): Promise<CorrectionRow[]> {
  const [rows] = await batch(db, [
    sql`SELECT c.report_id, c.region_id, c.level, c.field, c.value_before, c.value, c.basis, c.accepted_at,
          coalesce(p.name, k.name, d.name, v.name) AS name
        FROM wilayah_corrections c
        LEFT JOIN provinsi p ON c.level = 1 AND p.id = c.region_id
        LEFT JOIN kabupaten k ON c.level = 2 AND k.id = c.region_id
        LEFT JOIN kecamatan d ON c.level = 3 AND d.id = c.region_id
        LEFT JOIN kelurahan v ON c.level = 4 AND v.id = c.region_id
        ORDER BY c.accepted_at, c.report_id`,
  ]);
  return rows.results as CorrectionRow[];
}

/** The corrections of one region (the `region_id` index), in the order they were accepted: its provenance cites them. */
export async function correctionsOf(db: RegionDb, regionId: string): Promise<Omit<CorrectionRow, "name">[]> {
  const [rows] = await batch(db, [
    sql`SELECT report_id, region_id, level, field, value_before, value, basis, accepted_at
        FROM wilayah_corrections WHERE region_id = ${regionId} ORDER BY accepted_at, report_id`,
  ]);
  return rows.results as Omit<CorrectionRow, "name">[];
}
