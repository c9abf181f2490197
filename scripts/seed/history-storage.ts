/** The region history as D1 rows and SQL (moved from history.ts). */
import { insertStatements, sqlString } from "../lib.ts";
import { allEditionsMask, type Basis, type Change, type EditionId, type Editions, type LevelNo, levelOfCode } from "./history-editions.ts";
import { nameKey } from "./history-names.ts";
import { byCode, type ChangeEvent, type CodeRecord, type History, pushTo } from "./history-transition.ts";

// ---------------------------------------------------------------- storage (D1)

/**
 * The compact rows the seed stores (src/db/schema.ts, section "region history"):
 *  - wilayah_edition: the six editions;
 *  - wilayah_history: one row per code whose history is more than "in every edition under the name
 *    the current list gives it" (such a code needs no row: its region row answers);
 *  - wilayah_successor: non-current code -> current code, chained, with basis and confidence;
 *  - wilayah_change: the events between consecutive editions, and wilayah_change_run: where each
 *    (edition, level, change) starts in them and how many it has.
 * `currentNames` are the names the region tables carry (idn-area-data, which spells 11 names
 * differently from edition 2025); without it edition 2025's names are used.
 */
export type HistoryRows = {
  editions: {
    id: EditionId;
    ord: number;
    regulation: string;
    provinsi: number;
    kabupaten: number;
    kecamatan: number;
    kelurahan: number;
    isCurrent: 0 | 1;
  }[];
  history: { id: string; level: LevelNo; editions: number; names: string; within: string | null }[];
  successors: { oldId: string; newId: string; basis: Basis; confidence: number; via: string | null }[];
  changes: (ChangeEvent & { seq: number })[];
  /** Runs of `changes` (sorted by edition, level, change): one (edition, level, change) is `seq` first .. first + n - 1. */
  runs: { edition: number; level: LevelNo; change: Change; first: number; n: number }[];
};

/** True when a code's history is just "every edition, one name, the name the region row carries". */
export const needsNoHistoryRow = (editions: Editions, r: CodeRecord, currentName: string | undefined) =>
  r.mask === allEditionsMask(editions) && r.names.length === 1 && r.names[0].name === (currentName ?? r.names[0].name);

export function historyRows(h: History, currentNames?: Map<string, string>): HistoryRows {
  const history: HistoryRows["history"] = [];
  for (const r of [...h.codes.values()].sort((a, b) => byCode(a.code, b.code))) {
    const currentName = currentNames?.get(r.code);
    // a current code the region tables lack could answer /history from nowhere
    if (r.current && currentNames && currentName === undefined) throw new Error(`${r.code} is in edition 2025 but not among the current names`);
    if (r.current && needsNoHistoryRow(h.editions, r, currentName)) continue;
    // `[[mask, "name"], ...]`: each spelling once, with the editions that use it
    history.push({
      id: r.code,
      level: r.level,
      editions: r.mask,
      names: JSON.stringify(r.names.map((n) => [n.mask, n.name])),
      within: r.current ? null : (h.within.get(r.code) ?? null),
    });
  }
  const successors: HistoryRows["successors"] = [];
  for (const [oldId, list] of [...h.successors].sort(([a], [b]) => byCode(a, b))) {
    for (const s of list) successors.push({ oldId, newId: s.code, basis: s.basis, confidence: s.confidence, via: s.via.length ? s.via.join(" ") : null });
  }
  const changes = h.events.map((e, i) => ({ ...e, seq: i + 1 }));
  const runs: HistoryRows["runs"] = [];
  for (const c of changes) {
    const last = runs.at(-1);
    if (last && last.edition === c.edition && last.level === c.level && last.change === c.change) last.n++;
    else runs.push({ edition: c.edition, level: c.level, change: c.change, first: c.seq, n: 1 });
  }
  // the events are sorted by (edition, level, change): one run each, never two
  if (new Set(runs.map((r) => `${r.edition}|${r.level}|${r.change}`)).size !== runs.length) throw new Error("history: change events out of order");
  return {
    editions: h.report.editions.map((e, i) => ({
      id: e.id,
      ord: i,
      regulation: h.editions[i].regulation,
      provinsi: e.counts[0],
      kabupaten: e.counts[1],
      kecamatan: e.counts[2],
      kelurahan: e.counts[3],
      isCurrent: i === h.editions.length - 1 ? 1 : 0,
    })),
    history,
    successors,
    changes,
    runs,
  };
}

/**
 * A code's editions and names as /history shows them, read back from the stored rows: its history
 * row, or else (a code in every edition under one name) its region row's name. Null: never a code.
 * The test reads every code of every edition through this, so the compact form is proven to serve.
 */
export function editionsFromRows(
  editions: Editions,
  historyRow: { editions: number; names: string } | undefined,
  regionName: string | undefined,
): { edition: EditionId; name: string }[] | null {
  if (historyRow) {
    const names = JSON.parse(historyRow.names) as [number, string][];
    return editions.flatMap((e, i) => {
      const n = names.find(([m]) => m & (1 << i));
      return n ? [{ edition: e.id, name: n[1] }] : [];
    });
  }
  if (regionName === undefined) return null;
  return editions.map((e) => ({ edition: e.id, name: regionName }));
}

/**
 * The names a current code was known by in earlier editions, for search: its own earlier names and
 * those of its predecessors (each at least `minConfidence`), where they differ from the current name
 * beyond case, spacing and punctuation. Sorted; codes without any are absent.
 */
export function formerNames(h: History, currentNames?: Map<string, string>, minConfidence = 0.5): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of [...h.codes.values()].filter((x) => x.current).sort((a, b) => byCode(a.code, b.code))) {
    const now = currentNames?.get(r.code) ?? r.names[r.names.length - 1].name;
    const seen = new Set([nameKey(r.level, now)]);
    const names: string[] = [];
    const add = (n: string) => {
      const k = nameKey(r.level, n);
      if (!seen.has(k)) {
        seen.add(k);
        names.push(n);
      }
    };
    for (const n of r.names) add(n.name);
    for (const p of h.predecessors.get(r.code) ?? []) if (p.confidence >= minConfidence) for (const n of h.codes.get(p.code)?.names ?? []) add(n.name);
    if (names.length) out.set(r.code, names);
  }
  return out;
}

/**
 * Successors of codes the region tables keep as retired but no edition holds (idn-area-data 3.1.2
 * lists 18 villages of Papua Barat Daya under codes no edition published): the current code of the
 * same name (nameKey) under the same parent, when there is exactly one; otherwise none, never a guess.
 */
export function orphanSuccessors(
  orphans: { id: string; name: string; parentId: string | null }[],
  current: { id: string; name: string; parentId: string | null }[],
): HistoryRows["successors"] {
  const byParent = new Map<string, { id: string; key: string }[]>();
  for (const c of current) {
    pushTo(byParent, c.parentId ?? "", { id: c.id, key: nameKey(levelOfCode(c.id), c.name) });
  }
  const out: HistoryRows["successors"] = [];
  for (const o of [...orphans].sort((a, b) => byCode(a.id, b.id))) {
    const key = nameKey(levelOfCode(o.id), o.name);
    const found = (byParent.get(o.parentId ?? "") ?? []).filter((c) => c.key === key && c.id !== o.id);
    if (found.length === 1) out.push({ oldId: o.id, newId: found[0].id, basis: "same_name", confidence: 0.95, via: null });
  }
  return out;
}

export const HISTORY_TABLES = ["wilayah_change_run", "wilayah_change", "wilayah_successor", "wilayah_history", "wilayah_edition"] as const;

/** D1 caps one statement at 100 KB: multi-row INSERTs are cut well below that. */
const MAX_STATEMENT_BYTES = 60_000;
const lit = (v: string | number | null) => (v === null ? "NULL" : typeof v === "number" ? String(v) : sqlString(v));
const tuple = (values: (string | number | null)[]) => `(${values.map(lit).join(",")})`;

/** The INSERT SQL of the history tables (emptied first, so loading twice leaves the same state). */
export function historySql(rows: HistoryRows): string {
  let sql =
    "-- Region history: generated by scripts/seed/history.ts from seed/sources/wilayah-editions.csv.gz (MIT, (c) 2017-2025 Cahya DSN) and seed/history-curated.csv. Do not edit.\n";
  for (const t of HISTORY_TABLES) sql += `DELETE FROM ${t};\n`;
  const ins = (table: string, columns: string, tuples: string[]) => insertStatements(table, columns, tuples, MAX_STATEMENT_BYTES);
  sql += ins(
    "wilayah_edition",
    "id, ord, regulation, provinsi, kabupaten, kecamatan, kelurahan, is_current",
    rows.editions.map((e) => tuple([e.id, e.ord, e.regulation, e.provinsi, e.kabupaten, e.kecamatan, e.kelurahan, e.isCurrent])),
  );
  sql += ins(
    "wilayah_history",
    "id, level, editions, names, within",
    rows.history.map((r) => tuple([r.id, r.level, r.editions, r.names, r.within])),
  );
  sql += ins(
    "wilayah_successor",
    "old_id, new_id, basis, confidence, via",
    rows.successors.map((s) => tuple([s.oldId, s.newId, s.basis, s.confidence, s.via])),
  );
  sql += ins(
    "wilayah_change",
    "seq, edition, level, change, code_before, name_before, code_after, name_after, basis, confidence",
    rows.changes.map((e) => tuple([e.seq, e.edition, e.level, e.change, e.codeBefore, e.nameBefore, e.codeAfter, e.nameAfter, e.basis, e.confidence])),
  );
  sql += ins(
    "wilayah_change_run",
    "edition, level, change, first, n",
    rows.runs.map((r) => tuple([r.edition, r.level, r.change, r.first, r.n])),
  );
  return sql;
}
