/** Provenance (src/wilayah/sources). */
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Where the data comes from (issue 40): the datasets and regulations behind each family of a
 * region's fields, written by the seed from seed/sources/sources.json (checked against
 * seed/sources/README.md and seed/editions.json). Read whole (a few dozen rows) by
 * `?include=sources` and the page /docs/guide/sources. `version`, `licence`: null where the source
 * states none (said in `note`), never guessed.
 */
export const wilayahSource = sqliteTable("wilayah_source", {
  id: text("id").primaryKey(), // idn-area-data, cahyadsn-boundaries, edition-2025, ...
  ord: integer("ord").notNull(), // display order
  kind: text("kind", { enum: ["dataset", "regulation"] }).notNull(),
  families: text("families").notNull(), // space-separated: code_name coordinates postal_code boundary population_area islands bps_codes
  name: text("name").notNull(),
  url: text("url"),
  version: text("version"), // release or commit; for a regulation its number
  date: text("date"), // commit date or the regulation's date (YYYY-MM-DD); null: unknown
  licence: text("licence"), // SPDX id where there is one (MIT, ODbL-1.0); null: none stated
  licenceUrl: text("licence_url"),
  attribution: text("attribution").notNull(), // the credit to show where the data is shown or shipped
  edition: text("edition"), // a regulation: the edition of the code list it set (wilayah_edition.id)
  files: text("files"), // the repository files it arrives in, `|`-separated
  processing: text("processing"),
  note: text("note"),
});

/**
 * Hand corrections and additions per region, each with its basis: curated history links
 * (seed/history-curated.csv), name readings (seed/name-table.csv), aliases (seed/aliases.csv),
 * hand-set alternative names, points derived from a boundary, island moves. Read by region id.
 */
export const wilayahSourceNote = sqliteTable(
  "wilayah_source_note",
  {
    regionId: text("region_id").notNull(),
    family: text("family").notNull(),
    kind: text("kind").notNull(), // curated_history | name_reading | alias | alt_name | derived_point | island_move
    value: text("value").notNull(),
    basis: text("basis").notNull(),
    sourceFile: text("source_file").notNull(), // the repository file (or code) the correction is written in
  },
  (t) => [primaryKey({ columns: [t.regionId, t.family, t.kind, t.value] })],
);
