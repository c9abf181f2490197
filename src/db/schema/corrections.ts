/** Corrections applied by the seed from accepted reports (src/wilayah/corrections). */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Corrections applied by the seed (seed/corrections.csv, from accepted reports: scripts/seed/corrections.ts):
 * read-only between seeds, like the region tables. `value_before` is what the sources said.
 */
export const wilayahCorrections = sqliteTable(
  "wilayah_corrections",
  {
    reportId: text("report_id").primaryKey(),
    regionId: text("region_id").notNull(),
    level: integer("level").notNull(), // 1 provinsi .. 4 kelurahan/desa
    field: text("field").notNull(), // name | postal_code | coordinates
    valueBefore: text("value_before"),
    value: text("value").notNull(),
    basis: text("basis").notNull(),
    acceptedAt: text("accepted_at").notNull(), // ISO 8601
  },
  (t) => [index("wilayah_corrections_region_idx").on(t.regionId)],
);
