/** BPS codes (src/wilayah/bps). */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The statistics bureau's region codes (seed/sources/wilayah-bps-crosswalk.csv): one row per BPS code
 * (4 digits kabupaten/kota, 7 kecamatan, 10 kelurahan/desa; unique across levels by length), in the
 * newest BPS period that has it. A BPS region lies in `current_id`, it does not always equal it: one
 * current region may hold several BPS codes. `current_id` null: the crosswalk could not establish
 * one, and the code stays unmapped (never guessed). `current_name` is the region's name at the seed.
 */
export const wilayahBps = sqliteTable(
  "wilayah_bps",
  {
    code: text("code").primaryKey(), // BPS code, digits only
    level: integer("level").notNull(), // 2 kabupaten/kota, 3 kecamatan, 4 kelurahan/desa
    name: text("name"), // as BPS spells it; null for the 2020_2 rows (the source kept only the Kemendagri name)
    period: text("period").notNull(), // 2025_2 | 2020_2 | 2017_2: sorts newest last
    kemendagriCodes: text("kemendagri_codes"), // the Kemendagri code(s) of that period, `|`-separated (several: 8 rows); null: none given
    kemendagriName: text("kemendagri_name"),
    currentId: text("current_id"), // today's dotted code
    currentName: text("current_name"),
    match: text("match").notNull(), // same_code_same_name | same_code_name_differs | renamed_or_moved | none
  },
  // current: a by-id answer's bps_codes read from the index alone, in its order (newest period, then code);
  // period: the not-found answer names the periods held, a few index lookups (src/wilayah/bps/queries.ts)
  (t) => [index("wilayah_bps_current_idx").on(t.currentId, sql`${t.period} DESC`, t.code), index("wilayah_bps_period_idx").on(t.period)],
);
