/** Search (src/wilayah/search): the former names; the search tables themselves live in custom migrations. */
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Search (src/wilayah/search): the spellings among a region's `wilayah_search.terms` that are names
 * of earlier editions and not of the current list (normalised, between U+001F separators), by
 * `wilayah_search.ord`. A match the region's current spellings cannot explain is marked `former`.
 */
export const wilayahFormer = sqliteTable("wilayah_former", {
  r: integer("r").primaryKey(),
  terms: text("terms").notNull(),
});
