/**
 * Reads of the region history tables (src/db/schema.ts, "region history"; filled by the seed from
 * scripts/seed/history.ts). Every read is a fixed number of statements, whatever the number of
 * codes: /convert hands its codes to SQLite as one JSON array (json_each), never one statement each.
 */
import { type SQL, sql } from "drizzle-orm";
import { batch, type RegionDb } from "../../db/client";
import type { Level } from "../codes";

export type EditionRow = {
  id: string;
  ord: number;
  regulation: string;
  provinsi: number;
  kabupaten: number;
  kecamatan: number;
  kelurahan: number;
  is_current: number;
};

/** The changes of one edition (`ord`), level and kind are `seq` first .. first + n - 1. */
export type RunRow = { edition: number; level: number; change: string; first: number; n: number };

/** The editions and the runs of their changes (a few hundred rows at most), in one round trip. */
export async function editionRows(db: RegionDb): Promise<{ editions: EditionRow[]; runs: RunRow[] }> {
  const [editions, runs] = await batch(db, [
    sql`SELECT id, ord, regulation, provinsi, kabupaten, kecamatan, kelurahan, is_current FROM wilayah_edition ORDER BY ord`,
    sql`SELECT edition, level, change, first, n FROM wilayah_change_run ORDER BY first`,
  ]);
  return { editions: editions.results as EditionRow[], runs: runs.results as RunRow[] };
}

/** A code's row in wilayah_history: the editions it is in (bit `ord`), its names (`[[mask, name], ...]` JSON), `within` for a retired code. */
export type HistoryRow = { id: string; level: number; editions: number; names: string; within: string | null };

export type ChangeRow = {
  seq: number;
  edition: number;
  level: number;
  change: string;
  code_before: string | null;
  name_before: string | null;
  code_after: string | null;
  name_after: string | null;
  basis: string | null;
  confidence: number | null;
};

/** The region table of a level (a fixed identifier, never input). */
const TABLE: Record<Level, SQL> = {
  provinsi: sql.raw("provinsi"),
  kabupaten: sql.raw("kabupaten"),
  kecamatan: sql.raw("kecamatan"),
  kelurahan: sql.raw("kelurahan"),
};

/** `columns` of the region row of a code of any level: one primary-key lookup in the table its length names (32, 32.73, 32.73.09, 32.73.09.1001). */
const regionOf = (id: SQL, columns: string) =>
  sql`CASE length(${id}) WHEN 2 THEN (SELECT ${sql.raw(columns)} FROM provinsi WHERE id = ${id}) WHEN 5 THEN (SELECT ${sql.raw(columns)} FROM kabupaten WHERE id = ${id})
    WHEN 8 THEN (SELECT ${sql.raw(columns)} FROM kecamatan WHERE id = ${id}) WHEN 13 THEN (SELECT ${sql.raw(columns)} FROM kelurahan WHERE id = ${id}) END`;

const CHANGE_COLUMNS = sql.raw("seq, edition, level, change, code_before, name_before, code_after, name_after, basis, confidence");
const CHANGE_COLUMNS_OF_C = sql.raw("c.seq, c.edition, c.level, c.change, c.code_before, c.name_before, c.code_after, c.name_after, c.basis, c.confidence");

export type SuccessorRow = { id: string; name: string | null; basis: string; confidence: number; via: string | null };
export type PredecessorRow = { code: string; editions: number | null; names: string | null; region_name: string | null; basis: string; confidence: number };

/** JSON of each row of a sub-select, as one array (its order kept). */
const jsonRows = (columns: string[], from: SQL) =>
  sql`(SELECT json_group_array(json_object(${sql.raw(columns.map((c) => `'${c}', ${c}`).join(", "))})) FROM (${from}))`;

/**
 * Everything /history shows of one code, in one statement (one row of JSON columns): its history
 * row (with the name of the region it lies within), its region row, its successors and predecessors
 * (successors are of the code's level: a step never changes level), and the changes that name it or
 * move it on along a chain (the codes between, `via`: digits and dots only, read as a JSON array).
 * Five statements in a batch cost several times one locally (docs/performance.md, "Region history").
 */
export async function codeHistory(db: RegionDb, id: string, level: Level) {
  const t = TABLE[level];
  const changes = sql`SELECT ${CHANGE_COLUMNS} FROM wilayah_change WHERE code_before = ${id} UNION SELECT ${CHANGE_COLUMNS} FROM wilayah_change WHERE code_after = ${id}
    UNION SELECT ${CHANGE_COLUMNS_OF_C} FROM wilayah_successor s JOIN json_each('["' || replace(s.via, ' ', '","') || '"]') v JOIN wilayah_change c ON c.code_before = v.value
    WHERE s.old_id = ${id} AND s.via IS NOT NULL ORDER BY seq`;
  const rows = await db.all<Record<"history" | "region" | "successors" | "predecessors" | "changes", string | null>>(sql`SELECT
    (SELECT json_object('id', h.id, 'level', h.level, 'editions', h.editions, 'names', h.names, 'within', h.within, 'within_name', ${regionOf(sql`h.within`, "name")})
      FROM wilayah_history h WHERE h.id = ${id}) AS history,
    (SELECT json_object('name', name, 'is_active', is_active) FROM ${t} WHERE id = ${id}) AS region,
    ${jsonRows(
      ["id", "name", "basis", "confidence", "via"],
      sql`SELECT s.new_id AS id, r.name, s.basis, s.confidence, s.via FROM wilayah_successor s LEFT JOIN ${t} r ON r.id = s.new_id WHERE s.old_id = ${id} ORDER BY s.confidence DESC, s.new_id`,
    )} AS successors,
    ${jsonRows(
      ["code", "editions", "names", "region_name", "basis", "confidence"],
      sql`SELECT s.old_id AS code, h.editions, h.names, o.name AS region_name, s.basis, s.confidence FROM wilayah_successor s
        LEFT JOIN wilayah_history h ON h.id = s.old_id LEFT JOIN ${t} o ON o.id = s.old_id WHERE s.new_id = ${id} ORDER BY s.old_id`,
    )} AS predecessors,
    ${jsonRows(["seq", "edition", "level", "change", "code_before", "name_before", "code_after", "name_after", "basis", "confidence"], changes)} AS changes`);
  const row = rows[0];
  const parsed = <T>(text: string | null | undefined, empty: T): T => (text ? (JSON.parse(text) as T) : empty);
  return {
    history: parsed<(HistoryRow & { within_name: string | null }) | undefined>(row?.history, undefined),
    region: parsed<{ name: string; is_active: number } | undefined>(row?.region, undefined),
    successors: parsed<SuccessorRow[]>(row?.successors, []),
    predecessors: parsed<PredecessorRow[]>(row?.predecessors, []),
    changes: parsed<ChangeRow[]>(row?.changes, []),
  };
}

/** A retired code's history row and its successors' ids (by-id of a code of an earlier edition), in one round trip. */
export async function retiredCode(db: RegionDb, id: string): Promise<{ history: HistoryRow | undefined; successors: string[] }> {
  const [history, successors] = await batch(db, [
    sql`SELECT id, level, editions, names, within FROM wilayah_history WHERE id = ${id}`,
    sql`SELECT new_id FROM wilayah_successor WHERE old_id = ${id} ORDER BY confidence DESC, new_id`,
  ]);
  return { history: history.results[0] as HistoryRow | undefined, successors: (successors.results as { new_id: string }[]).map((r) => r.new_id) };
}

/** A code's history row and the changes that lead to it (`code_after`, by index), in one round trip: where its code and name were set (src/wilayah/sources). */
export async function codeOriginRows(db: RegionDb, id: string): Promise<{ history: HistoryRow | undefined; changes: ChangeRow[] }> {
  const [history, changes] = await batch(db, [
    sql`SELECT id, level, editions, names, within FROM wilayah_history WHERE id = ${id}`,
    sql`SELECT ${CHANGE_COLUMNS} FROM wilayah_change WHERE code_after = ${id} ORDER BY seq`,
  ]);
  return { history: history.results[0] as HistoryRow | undefined, changes: changes.results as ChangeRow[] };
}

/** The successors' ids of one code (retired rows of the region tables). */
export async function successorIds(db: RegionDb, id: string): Promise<string[]> {
  const rows = await db.all<{ new_id: string }>(sql`SELECT new_id FROM wilayah_successor WHERE old_id = ${id} ORDER BY confidence DESC, new_id`);
  return rows.map((r) => r.new_id);
}

/**
 * The changes of these `seq` values, in order: a page of /changes (at most 100), each read by rowid,
 * so a page reads its own rows only. The values are integers the service computed, written into the
 * text (a page holds more than the 100 parameters D1 binds); a list, not ranges: with many ranges
 * SQLite plans a scan of the table.
 */
export async function changesBySeq(db: RegionDb, seqs: number[]): Promise<ChangeRow[]> {
  if (seqs.length === 0) return [];
  return db.all<ChangeRow>(
    sql`SELECT ${CHANGE_COLUMNS} FROM wilayah_change WHERE seq IN (${sql.raw(seqs.map((n) => String(Math.trunc(n))).join(","))}) ORDER BY seq`,
  );
}

/** Per requested code, by its index in the JSON array: whether it has a history row, its region row (`[name, is_active]` JSON), its successors (`[[id, basis, confidence, name], ...]` JSON, surest first). */
export type ConvertRow = { i: number; history: number; region: string | null; successors: string };

/**
 * /convert: one statement for any number of codes (up to 1,000), one row per code, each read by
 * primary key (its history row, its region row in the table its length names, its successors and
 * their names), so the rows read grow with the codes and nothing else.
 */
export async function convertCodes(db: RegionDb, ids: string[]): Promise<ConvertRow[]> {
  return db.all<ConvertRow>(sql`SELECT j.key AS i,
    EXISTS (SELECT 1 FROM wilayah_history h WHERE h.id = j.value) AS history,
    ${regionOf(sql`j.value`, "json_array(name, is_active)")} AS region,
    (SELECT json_group_array(json_array(s.new_id, s.basis, s.confidence, ${regionOf(sql`s.new_id`, "name")}))
      FROM (SELECT new_id, basis, confidence FROM wilayah_successor WHERE old_id = j.value ORDER BY confidence DESC, new_id) s) AS successors
    FROM json_each(${JSON.stringify(ids)}) j ORDER BY j.key`);
}

/** The history rows of a few codes, as a statement to batch with the caller's reads (NIK: its provinsi, kabupaten and kecamatan codes). */
export const historyRowsStatement = (ids: string[]) =>
  sql`SELECT id, level, editions, names, within FROM wilayah_history WHERE id IN (${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )})`;

/** The changes with `seq` from `first` to `last` (one edition's changes are one such range), in order; read by rowid. */
export async function changesInSeqRange(db: RegionDb, first: number, last: number): Promise<ChangeRow[]> {
  return db.all<ChangeRow>(sql`SELECT ${CHANGE_COLUMNS} FROM wilayah_change WHERE seq BETWEEN ${first} AND ${last} ORDER BY seq`);
}

/** Per current code of `ids`, the codes of earlier editions it succeeds (wilayah_successor by new_id, its index): one statement. */
export async function predecessorRows(db: RegionDb, ids: string[]): Promise<{ new_id: string; old_id: string }[]> {
  if (ids.length === 0) return [];
  return db.all<{ new_id: string; old_id: string }>(
    sql`SELECT s.new_id, s.old_id FROM json_each(${JSON.stringify(ids)}) j CROSS JOIN wilayah_successor s ON s.new_id = j.value`,
  );
}
