/** Region history (src/wilayah/history). */
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Filled by the seed from scripts/seed/history.ts (docs/history-method.md): six editions of the
// code list (2015 .. 2025), read-only between seeds. A code that is in every edition under the name
// its region row carries has no wilayah_history row: its region row answers for it.

/** The editions, oldest first. `ord` is the edition's bit in wilayah_history.editions and wilayah_change.edition. */
export const wilayahEdition = sqliteTable(
  "wilayah_edition",
  {
    id: text("id").primaryKey(), // 2015, 2017, 2020, 2022, 2022b, 2025
    ord: integer("ord").notNull(),
    regulation: text("regulation").notNull(),
    provinsi: integer("provinsi").notNull(), // codes per level in this edition
    kabupaten: integer("kabupaten").notNull(),
    kecamatan: integer("kecamatan").notNull(),
    kelurahan: integer("kelurahan").notNull(),
    isCurrent: integer("is_current").notNull(),
  },
  (t) => [uniqueIndex("wilayah_edition_ord_uq").on(t.ord)],
);

/** Every code with more history than "in every edition, under its region row's name"; every non-current code. */
export const wilayahHistory = sqliteTable("wilayah_history", {
  id: text("id").primaryKey(), // dotted code
  level: integer("level").notNull(), // 1 provinsi .. 4 kelurahan/desa
  editions: integer("editions").notNull(), // bit `ord` set: the code is in that edition (63: all six)
  names: text("names").notNull(), // JSON [[editions bitmask, "name as that edition spells it"], ...]
  within: text("within"), // non-current code: the deepest current region holding all of it (null: unknown)
});

/** Non-current code -> current code, chained through the editions (several rows: a split or an unresolved tie). */
export const wilayahSuccessor = sqliteTable(
  "wilayah_successor",
  {
    oldId: text("old_id").notNull(),
    newId: text("new_id").notNull(),
    basis: text("basis").notNull(), // curated | same_name | same_name_elsewhere | children | split | similar_name | name_part
    confidence: real("confidence").notNull(), // 0..1, docs/history-method.md
    via: text("via"), // the codes between, space-separated, when the chain has several steps
  },
  (t) => [primaryKey({ columns: [t.oldId, t.newId] }), index("wilayah_successor_new_idx").on(t.newId)],
);

/**
 * Changes between consecutive editions. `seq` follows (edition, level, change, codes), so the changes
 * of one (edition, level, change) are one run of `seq` (wilayah_change_run), and a page of /changes,
 * whatever its filters, is a few `seq` ranges: it reads its own rows only.
 */
export const wilayahChange = sqliteTable(
  "wilayah_change",
  {
    seq: integer("seq").primaryKey(),
    edition: integer("edition").notNull(), // wilayah_edition.ord of the edition the change shows in (1..5)
    level: integer("level").notNull(),
    change: text("change").notNull(), // created | retired | renamed | recoded | split | merged
    codeBefore: text("code_before"),
    nameBefore: text("name_before"),
    codeAfter: text("code_after"),
    nameAfter: text("name_after"),
    basis: text("basis"),
    confidence: real("confidence"),
  },
  (t) => [index("wilayah_change_before_idx").on(t.codeBefore), index("wilayah_change_after_idx").on(t.codeAfter)],
);

/** The runs of wilayah_change: the changes of one edition, level and kind are `seq` first .. first + n - 1 (at most 6 x 4 x 5 rows). */
export const wilayahChangeRun = sqliteTable(
  "wilayah_change_run",
  {
    edition: integer("edition").notNull(), // wilayah_edition.ord
    level: integer("level").notNull(),
    change: text("change").notNull(),
    first: integer("first").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.edition, t.level, t.change] })],
);
