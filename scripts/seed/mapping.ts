/**
 * The code mapping files (GET /api/v1/wilayah/changes/mapping; docs/api.md, "Migrate your
 * database"): every code of an earlier edition of the code list, all four levels, with its code
 * today. Read from the seed's region history tables (the rows scripts/seed/history-storage.ts
 * renders for D1, which /wilayah/convert and /wilayah/{code}/history answer from) and the region
 * tables' current names, so a file says what /convert says of each code. One file per edition that
 * is not current and per format (CSV, JSON, SQL); scripts/seed/exports.ts writes them into the export.
 * Pure and deterministic.
 */
import { MAPPING_COLUMNS, MAPPING_SQL_COLUMNS, MAPPING_SQL_TABLE, type MappingFormat, type MappingStatus } from "../../src/wilayah/export/files.ts";
import { LEVEL_NAMES, type LevelNo, levelOfCode } from "./history-editions.ts";
import { nameKey } from "./history-names.ts";
import type { HistoryRows } from "./history-storage.ts";

export type MappingRow = {
  old_code: string;
  /** As the edition spelt it. */
  old_name: string;
  level: (typeof LEVEL_NAMES)[LevelNo];
  status: MappingStatus;
  /** Null for a retired code (no successor known). */
  new_code: string | null;
  /** The region tables' (current) name of new_code. */
  new_name: string | null;
  /** Why this successor (the API's `basis`); null when the code is kept or retired. */
  basis: string | null;
  /** How likely a place of the old code lies in new_code (the API's `confidence`); null when the code is kept or retired. */
  confidence: number | null;
};

type Tables = Pick<HistoryRows, "editions" | "history" | "successors">;

/** The editions a mapping file is built for: every one but the current, oldest first. */
export const mappingEditions = (tables: Pick<HistoryRows, "editions">) => tables.editions.filter((e) => e.isCurrent !== 1).map((e) => e.id);

/** The edition every mapping maps to. */
export function currentEdition(tables: Pick<HistoryRows, "editions">): string {
  const current = tables.editions.find((e) => e.isCurrent === 1);
  if (!current) throw new Error("region history: no current edition");
  return current.id;
}

/**
 * Every code of edition `from` with what it is today, ordered by old code (a code with several
 * successors: one row each, surest first). `currentNames`: the current codes' names as the region
 * tables hold them (the API's names). A code kept is `same`, or `renamed` when its name differs
 * beyond case, spacing, punctuation and abbreviations (the rule of /wilayah/changes).
 */
export function mappingRows(tables: Tables, currentNames: Map<string, string>, from: string): MappingRow[] {
  const edition = tables.editions.find((e) => e.id === from);
  if (!edition || edition.isCurrent === 1) throw new Error(`mapping: ${from} is no earlier edition (${mappingEditions(tables).join(", ")})`);
  const now = tables.editions.find((e) => e.isCurrent === 1)?.ord ?? -1;
  const bit = 1 << edition.ord;
  const successors = new Map<string, HistoryRows["successors"]>();
  for (const s of tables.successors) successors.set(s.oldId, [...(successors.get(s.oldId) ?? []), s]);

  const out: Omit<MappingRow, "status">[] = [];
  const kept = new Map<string, boolean>(); // current code of the edition -> renamed
  const retired = new Map<string, HistoryRows["successors"]>();
  const withRow = new Set<string>();
  for (const h of tables.history) {
    withRow.add(h.id);
    if (!(h.editions & bit)) continue;
    const names = JSON.parse(h.names) as [number, string][];
    const nameIn = (mask: number) => names.find(([m]) => m & mask)?.[1] ?? "";
    const level = LEVEL_NAMES[h.level];
    const oldName = nameIn(bit);
    if (h.editions & (1 << now)) {
      const newName = currentNames.get(h.id);
      if (newName === undefined) throw new Error(`mapping: ${h.id} is current but has no region row`);
      kept.set(h.id, nameKey(h.level, oldName) !== nameKey(h.level, nameIn(1 << now)));
      out.push({ old_code: h.id, old_name: oldName, level, new_code: h.id, new_name: newName, basis: null, confidence: null });
      continue;
    }
    const list = [...(successors.get(h.id) ?? [])].sort((a, b) => b.confidence - a.confidence || (a.newId < b.newId ? -1 : 1));
    retired.set(h.id, list);
    if (list.length === 0) out.push({ old_code: h.id, old_name: oldName, level, new_code: null, new_name: null, basis: null, confidence: null });
    for (const s of list) {
      const newName = currentNames.get(s.newId);
      if (newName === undefined) throw new Error(`mapping: successor ${s.newId} of ${h.id} has no region row`);
      out.push({ old_code: h.id, old_name: oldName, level, new_code: s.newId, new_name: newName, basis: s.basis, confidence: s.confidence });
    }
  }
  // A current code without a history row is in every edition under its region row's name.
  for (const [id, name] of currentNames) {
    if (withRow.has(id)) continue;
    kept.set(id, false);
    out.push({ old_code: id, old_name: name, level: LEVEL_NAMES[levelOfCode(id)], new_code: id, new_name: name, basis: null, confidence: null });
  }

  // How many codes of the edition end in each current code: a successor shared is a merger.
  const arrivals = new Map<string, number>();
  for (const r of out) if (r.new_code !== null) arrivals.set(r.new_code, (arrivals.get(r.new_code) ?? 0) + 1);
  const statusOf = (r: Omit<MappingRow, "status">): MappingStatus => {
    const renamed = kept.get(r.old_code);
    if (renamed !== undefined) return renamed ? "renamed" : "same";
    const list = retired.get(r.old_code) ?? [];
    if (list.length === 0) return "retired";
    if (list.length > 1) return list.some((s) => s.basis === "split") ? "split" : "ambiguous";
    return (arrivals.get(list[0].newId) ?? 0) > 1 ? "merged" : "recoded";
  };
  return out
    .map((r) => ({ ...r, status: statusOf(r) }))
    .sort((a, b) => (a.old_code < b.old_code ? -1 : a.old_code > b.old_code ? 1 : (b.confidence ?? 0) - (a.confidence ?? 0)))
    .map((r) => Object.fromEntries(MAPPING_COLUMNS.map((c) => [c, r[c]])) as MappingRow);
}

/** What a mapping file says of itself (the JSON's `meta`, the SQL's opening comment). */
export type MappingMeta = { from: string; to: string; export_id: string; data_version: string; license: string };

/** RFC 4180, as the export's CSV files: quoted when needed, null an empty field. */
const csvField = (v: string | number | null) => {
  if (v === null) return "";
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** Rows per INSERT of the SQL file: well within every dialect's statement limits. */
export const SQL_BATCH = 500;

/** A SQL literal: codes, statuses and bases are digits, dots and lower-case words; quotes are doubled anyway. */
const sqlLiteral = (v: string | number | null) => (v === null ? "NULL" : typeof v === "number" ? String(v) : `'${v.replaceAll("'", "''")}'`);

/**
 * The file's text. CSV: a header row, CRLF lines. JSON: `{meta, data}`, one row a line. SQL: a plain
 * CREATE TABLE (types every dialect reads: VARCHAR, DECIMAL), an index on old_code, then multi-row
 * INSERTs of SQL_BATCH rows; for PostgreSQL, MySQL and SQLite alike (test/node/mapping-sql.test.ts runs it in SQLite).
 */
export function renderMapping(rows: MappingRow[], format: MappingFormat, meta: MappingMeta): string {
  if (format === "csv")
    return [MAPPING_COLUMNS.join(","), ...rows.map((r) => MAPPING_COLUMNS.map((c) => csvField(r[c])).join(","))].map((l) => `${l}\r\n`).join("");
  if (format === "json") return `{"meta":${JSON.stringify({ ...meta, total: rows.length })},"data":[\n${rows.map((r) => JSON.stringify(r)).join(",\n")}\n]}\n`;
  let sql = `-- Wilayah API code mapping: the codes of edition ${meta.from} and their codes in edition ${meta.to} (the current list).
-- Export ${meta.export_id}, data version: ${meta.data_version}
-- Licence: ${meta.license}
-- ${rows.length} rows; a code with several successors has one row each. How to use it: docs/api.md, "Migrate your database".
CREATE TABLE ${MAPPING_SQL_TABLE} (
  old_code VARCHAR(13) NOT NULL,
  new_code VARCHAR(13),
  status VARCHAR(10) NOT NULL,
  basis VARCHAR(20),
  confidence DECIMAL(3, 2)
);
CREATE INDEX ${MAPPING_SQL_TABLE}_old_code ON ${MAPPING_SQL_TABLE} (old_code);
`;
  for (let i = 0; i < rows.length; i += SQL_BATCH) {
    const tuples = rows.slice(i, i + SQL_BATCH).map((r) => `(${MAPPING_SQL_COLUMNS.map((c) => sqlLiteral(r[c])).join(", ")})`);
    sql += `INSERT INTO ${MAPPING_SQL_TABLE} (${MAPPING_SQL_COLUMNS.join(", ")}) VALUES\n${tuples.join(",\n")};\n`;
  }
  return sql;
}
