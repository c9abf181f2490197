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
  change_first: number | null;
  change_last: number | null;
};

export async function editionRows(db: RegionDb): Promise<EditionRow[]> {
  return db.all<EditionRow>(
    sql`SELECT id, ord, regulation, provinsi, kabupaten, kecamatan, kelurahan, is_current, change_first, change_last FROM wilayah_edition ORDER BY ord`,
  );
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

/** The name of a region of any level by id: one primary-key lookup in each region table, the first found. */
const nameOfAnyLevel = (id: SQL) =>
  sql`coalesce((SELECT name FROM provinsi WHERE id = ${id}), (SELECT name FROM kabupaten WHERE id = ${id}), (SELECT name FROM kecamatan WHERE id = ${id}), (SELECT name FROM kelurahan WHERE id = ${id}))`;

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
    (SELECT json_object('id', h.id, 'level', h.level, 'editions', h.editions, 'names', h.names, 'within', h.within, 'within_name', ${nameOfAnyLevel(sql`h.within`)})
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

/** The successors' ids of one code (retired rows of the region tables). */
export async function successorIds(db: RegionDb, id: string): Promise<string[]> {
  const rows = await db.all<{ new_id: string }>(sql`SELECT new_id FROM wilayah_successor WHERE old_id = ${id} ORDER BY confidence DESC, new_id`);
  return rows.map((r) => r.new_id);
}

/** Changes with `seq` in [first, last] (an edition range), optionally of one level and kind, paged in `seq` order. */
export async function changeRange(
  db: RegionDb,
  opts: { first: number; last: number; level?: number; change?: string; limit: number; offset: number },
): Promise<{ total: number; rows: ChangeRow[] }> {
  const where = sql.join(
    [
      sql`seq BETWEEN ${opts.first} AND ${opts.last}`,
      opts.level === undefined ? undefined : sql`level = ${opts.level}`,
      opts.change === undefined ? undefined : sql`change = ${opts.change}`,
    ].filter((w): w is SQL => w !== undefined),
    sql` AND `,
  );
  const [total, rows] = await batch(db, [
    sql`SELECT count(*) AS n FROM wilayah_change WHERE ${where}`,
    sql`SELECT ${CHANGE_COLUMNS} FROM wilayah_change WHERE ${where} ORDER BY seq LIMIT ${opts.limit} OFFSET ${opts.offset}`,
  ]);
  return { total: (total.results[0] as { n: number }).n, rows: rows.results as ChangeRow[] };
}

/** Per requested code (by its index in the JSON array): its history row's fields and one row per successor. */
export type ConvertRow = {
  i: number;
  code: string;
  editions: number | null;
  names: string | null;
  new_id: string | null;
  basis: string | null;
  confidence: number | null;
};
/** A region row (any level) among the requested codes and their successors. */
export type RegionNameRow = { id: string; name: string; is_active: number; level: number };

/**
 * /convert: every code's history and successors, and the region rows of the codes and of their
 * successors (names, whether current), in one round trip of two statements, for any number of codes.
 */
export async function convertCodes(db: RegionDb, ids: string[]): Promise<{ rows: ConvertRow[]; regions: RegionNameRow[] }> {
  const list = JSON.stringify(ids);
  const wanted = sql`SELECT value FROM json_each(${list}) UNION SELECT s.new_id FROM json_each(${list}) j JOIN wilayah_successor s ON s.old_id = j.value`;
  const [rows, regions] = await batch(db, [
    sql`SELECT j.key AS i, j.value AS code, h.editions, h.names, s.new_id, s.basis, s.confidence FROM json_each(${list}) j
        LEFT JOIN wilayah_history h ON h.id = j.value LEFT JOIN wilayah_successor s ON s.old_id = j.value ORDER BY j.key, s.confidence DESC, s.new_id`,
    sql`WITH w(id) AS MATERIALIZED (${wanted})
        SELECT id, name, is_active, 1 AS level FROM provinsi WHERE id IN (SELECT id FROM w)
        UNION ALL SELECT id, name, is_active, 2 FROM kabupaten WHERE id IN (SELECT id FROM w)
        UNION ALL SELECT id, name, is_active, 3 FROM kecamatan WHERE id IN (SELECT id FROM w)
        UNION ALL SELECT id, name, is_active, 4 FROM kelurahan WHERE id IN (SELECT id FROM w)`,
  ]);
  return { rows: rows.results as ConvertRow[], regions: regions.results as RegionNameRow[] };
}

/** The history rows of a few codes, as a statement to batch with the caller's reads (NIK: its provinsi, kabupaten and kecamatan codes). */
export const historyRowsStatement = (ids: string[]) =>
  sql`SELECT id, level, editions, names, within FROM wilayah_history WHERE id IN (${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )})`;
