/**
 * The coverage report (tables `wilayah_coverage` and `wilayah_gap`, migrations/0014_wilayah_space.sql),
 * rebuilt by the seed and by the kelurahan boundary load (scripts/seed/space-sql.ts), so reading it
 * costs a few rows whatever is missing.
 */
import { type SQL, sql } from "drizzle-orm";
import { batch, type RegionDb } from "../../db/client";
import { LEVELS, type Level } from "../codes";
import { COVERAGE_FIELDS, type CoverageField } from "./fields";

export type CoverageRow = { level: number; field: CoverageField; regions: number; covered: number };

export async function coverageRows(db: RegionDb): Promise<CoverageRow[]> {
  return db.all<CoverageRow>(sql`SELECT level, field, regions, covered FROM wilayah_coverage ORDER BY level, field`);
}

/** How many current regions of the level lack the field (a statement, so other capabilities can batch it). */
export const lackingCountSql = (level: Level, field: CoverageField): SQL =>
  sql`SELECT coalesce(sum(regions - covered), 0) AS n FROM wilayah_coverage WHERE level = ${LEVELS.indexOf(level) + 1} AND field = ${field}`;

export type GapRow = { id: string; name: string; level: number };

/** One page of the regions lacking `field` at `levels`, by level then id, and how many there are. */
export async function lacking(db: RegionDb, field: CoverageField, levels: Level[], limit: number, offset: number): Promise<{ total: number; rows: GapRow[] }> {
  const numbers = levels.map((l) => LEVELS.indexOf(l) + 1);
  const inLevels = sql.join(
    numbers.map((n) => sql`${n}`),
    sql`, `,
  );
  const [total, rows] = await batch(db, [
    sql`SELECT coalesce(sum(regions - covered), 0) AS n FROM wilayah_coverage WHERE field = ${field} AND level IN (${inLevels})`,
    sql`SELECT g.id, coalesce(p.name, b.name, c.name, k.name) AS name, g.level FROM wilayah_gap g
        LEFT JOIN provinsi p ON g.level = 1 AND p.id = g.id LEFT JOIN kabupaten b ON g.level = 2 AND b.id = g.id
        LEFT JOIN kecamatan c ON g.level = 3 AND c.id = g.id LEFT JOIN kelurahan k ON g.level = 4 AND k.id = g.id
        WHERE g.field = ${field} AND g.level IN (${inLevels}) ORDER BY g.level, g.id LIMIT ${limit} OFFSET ${offset}`,
  ]);
  return { total: (total.results as { n: number }[])[0]?.n ?? 0, rows: rows.results as GapRow[] };
}

/** The fields one current region lacks: one primary-key lookup per field (a region's provenance, src/wilayah/sources). */
export async function gapFields(db: RegionDb, level: Level, id: string): Promise<CoverageField[]> {
  const fields = sql.join(
    COVERAGE_FIELDS.map((f) => sql`${f}`),
    sql`, `,
  );
  const rows = await db.all<{ field: CoverageField }>(
    sql`SELECT field FROM wilayah_gap WHERE field IN (${fields}) AND level = ${LEVELS.indexOf(level) + 1} AND id = ${id}`,
  );
  return rows.map((r) => r.field);
}
