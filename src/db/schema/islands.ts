/** Islands (src/wilayah/islands). Read-only between seeds. */
import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Islands (idn-area-data's islands, with the 2430/2025 moves applied). */
export const pulau = sqliteTable(
  "pulau",
  {
    id: text("id").primaryKey(), // 11.01.40001
    code: text("code").notNull(), // 110140001
    name: text("name").notNull(),
    nameSearch: text("name_search").notNull(), // normalised name (src/wilayah/normalize.ts)
    kabupatenId: text("kabupaten_id"), // null: the island belongs to the province as a whole (code xx.00.xxxxx)
    provinsiId: text("provinsi_id").notNull(),
    lat: real("lat"),
    lng: real("lng"),
    isPopulated: integer("is_populated").notNull(),
    isOutermostSmall: integer("is_outermost_small").notNull(),
    isActive: integer("is_active").notNull().default(1),
    replacedBy: text("replaced_by"), // for a retired code: the code that replaced it
  },
  (t) => [index("pulau_kabupaten_idx").on(t.kabupatenId, t.id), index("pulau_provinsi_idx").on(t.provinsiId, t.id)],
);
