/**
 * Region history (docs/api.md, "Region history"; how successors are found: docs/history-method.md):
 * the editions of the code list, a code's history, the changes between editions, converting codes of
 * any edition to current ones, and the record of a code of an earlier edition as last published.
 * Knows nothing of HTTP.
 */

import type { RegionDb } from "../../db/client";
import type { RegionReads } from "../../db/reads";
import { ApiError } from "../../lib/errors";
import { type Paging, pageWindow } from "../../lib/paging";
import { LEVELS, type Level, levelOf, parentAt, toDottedId, undotted } from "../codes";
import { type CorrectionRow, correctionRows } from "../corrections/queries";
import { loadedDataset } from "../dataset/queries";
import {
  type ChangeRow,
  changesBySeq,
  changesInSeqRange,
  codeHistory,
  codeOriginRows,
  convertCodes,
  type EditionRow,
  editionRows,
  type HistoryRow,
  predecessorRows,
  type RunRow,
  retiredCode,
  successorIds,
} from "./queries";

/** Kinds of change: between editions, and `corrected` (a fact the seed corrected from an accepted report: scripts/seed/corrections.ts). */
export const CHANGES = ["created", "retired", "renamed", "recoded", "split", "merged", "corrected"] as const;
export type ChangeKind = (typeof CHANGES)[number];
export const BASES = ["curated", "same_name", "same_name_elsewhere", "children", "split", "similar_name", "name_part"] as const;
export type Basis = (typeof BASES)[number];

/**
 * The editions and the runs of their changes change only with the loaded data (a seed apply swaps
 * them, before the Worker is deployed again), so they are kept per isolate for the loaded data's
 * checksum: the `dataKey` of an answer's reads (src/data/run.ts read it before them), else one
 * point read (the webhook publisher, the feed). An empty table (no seed loaded yet) is not kept.
 */
let memo: { key: string; editions: EditionRow[]; runs: RunRow[]; corrections: CorrectionRow[] } | undefined;
async function reference(reads: RegionReads) {
  const key = reads.dataKey ?? (await loadedDataset(reads.db))?.checksum ?? "";
  if (memo?.key === key) return memo;
  const [rows, corrections] = await Promise.all([editionRows(reads.db), correctionRows(reads.db)]);
  if (rows.editions.length) memo = { key, ...rows, corrections };
  return { ...rows, corrections };
}
export const editionList = async (reads: RegionReads): Promise<EditionRow[]> => (await reference(reads)).editions;

export async function listEditions(reads: RegionReads) {
  const rows = await editionList(reads);
  return {
    data: rows.map((e) => ({
      id: e.id,
      regulation: e.regulation,
      counts: { provinsi: e.provinsi, kabupaten: e.kabupaten, kecamatan: e.kecamatan, kelurahan: e.kelurahan },
      current: e.is_current === 1,
    })),
  };
}

/** A code's names per edition, `[[editions mask, name], ...]` as stored. */
const namesOf = (row: { names: string }) => JSON.parse(row.names) as [number, string][];
/** The last edition (its `ord`) of an editions mask. */
export const lastOrd = (mask: number) => 31 - Math.clz32(mask);
/** The name a code had in the edition `ord` (undefined: not in that edition). */
export const nameIn = (row: { names: string }, ord: number) => namesOf(row).find(([mask]) => mask & (1 << ord))?.[1];

/** An edition as a region's provenance cites it. `at_or_before`: the oldest edition the data holds, so the fact may be older. */
export type EditionCite = { edition: string; regulation: string; at_or_before: boolean };

/**
 * Where a code and its name were set, as far as the editions tell (src/wilayah/sources): the first
 * edition holding the code, and the change that brought it (created, recoded from another code,
 * split, merged, with its basis); the edition of its last rename (spelling and case aside), else
 * the code's first. A code without a history row is in every edition under the name its region row
 * carries. `name_as_published`: the name in the last edition holding the code. Null: a retired
 * code of the region tables that no edition holds (the editions cannot tell).
 */
export async function codeOrigin(
  reads: RegionReads,
  id: string,
  isCurrent: boolean,
): Promise<{
  code: EditionCite & { change: { kind: ChangeKind; from: string | null; basis: Basis | null; confidence: number | null } | null };
  name: EditionCite;
  name_as_published: string | null;
  until: EditionCite | null;
} | null> {
  const [editions, { history, changes }] = await Promise.all([editionList(reads), codeOriginRows(reads.db, id)]);
  if (!editions.length || (!history && !isCurrent)) return null;
  const mask = history?.editions ?? (1 << editions.length) - 1;
  const first = 31 - Math.clz32(mask & -mask); // the lowest set bit
  const last = lastOrd(mask);
  const cite = (ord: number): EditionCite => ({
    edition: editions[ord]?.id ?? String(ord),
    regulation: editions[ord]?.regulation ?? "",
    at_or_before: ord === 0,
  });
  const arrival = changes.find((c) => c.edition === first && c.change !== "renamed");
  const renamed = changes.filter((c) => c.change === "renamed").map((c) => c.edition);
  const nameOrd = renamed.length ? Math.max(...renamed) : first;
  return {
    code: {
      ...cite(first),
      change: arrival
        ? { kind: arrival.change as ChangeKind, from: arrival.code_before, basis: arrival.basis as Basis | null, confidence: arrival.confidence }
        : null,
    },
    name: cite(nameOrd),
    name_as_published: history ? (nameIn(history, last) ?? null) : null,
    until: last === editions.length - 1 ? null : cite(last),
  };
}

const notFound = (raw: string) =>
  new ApiError(
    "NOT_FOUND",
    `No region code "${raw.length > 40 ? `${raw.slice(0, 40)}…` : raw}" in any edition (2015 to now). Codes look like 32, 32.73, 32.73.09 or 32.73.09.1001 (dots optional).`,
  );

const levelName = (n: number) => LEVELS[n - 1];
const confidence = (c: number) => Math.round(c * 100) / 100;

function changeItem(c: ChangeRow, editions: EditionRow[]) {
  const e = editions[c.edition];
  return {
    kind: "edition" as "edition" | "correction",
    edition: e?.id ?? String(c.edition),
    regulation: e?.regulation ?? "",
    change: c.change as ChangeKind,
    level: levelName(c.level),
    code_before: c.code_before,
    name_before: c.name_before,
    code_after: c.code_after,
    name_after: c.name_after,
    basis: c.basis as Basis | null,
    confidence: c.confidence,
  };
}

/**
 * A correction as a change of the current edition (`kind` correction, change `corrected`): the
 * region before and after (the names differ only for a name correction), and in `correction` the
 * field, the values, the basis and the report it came from.
 */
function correctionItem(c: CorrectionRow, current: EditionRow) {
  const nameBefore = c.field === "name" ? c.value_before : c.name;
  return {
    kind: "correction" as "edition" | "correction",
    edition: current.id,
    regulation: current.regulation,
    change: "corrected" as ChangeKind,
    level: levelName(c.level),
    code_before: c.region_id,
    name_before: nameBefore,
    code_after: c.region_id,
    name_after: c.name,
    basis: null,
    confidence: null,
    correction: { report_id: c.report_id, field: c.field, value_before: c.value_before, value: c.value, basis: c.basis, accepted_at: c.accepted_at },
  };
}

/** GET /{code}/history: editions and names, successors, predecessors, changes. 404 only for a code no edition and no region table holds. */
export async function regionHistory(reads: RegionReads, raw: string) {
  const id = toDottedId(raw);
  if (!id) throw notFound(raw);
  const level = levelOf(id);
  const [{ editions, corrections }, h] = await Promise.all([reference(reads), codeHistory(reads.db, id, level)]);
  if (!h.history && !h.region) throw notFound(raw);
  const current = h.region?.is_active === 1;
  const byEdition = h.history
    ? editions.flatMap((e) => {
        const name = nameIn(h.history as HistoryRow, e.ord);
        return name === undefined ? [] : [{ edition: e.id, name }];
      })
    : current && h.region
      ? editions.map((e) => ({ edition: e.id, name: (h.region as { name: string }).name }))
      : []; // a retired code of the region tables that no edition holds
  // the region tables first (as by id): the current name, or a retired row of the previous list as it published it
  const name = h.region?.name ?? byEdition.at(-1)?.name ?? "";
  return {
    data: {
      code: id,
      level,
      name,
      status: current ? ("current" as const) : ("retired" as const),
      editions: byEdition,
      successors: h.successors.map((s) => ({
        id: s.id,
        name: s.name ?? "",
        level,
        basis: s.basis as Basis,
        confidence: confidence(s.confidence),
        via: s.via ? s.via.split(" ") : [],
      })),
      within: !current && h.history?.within ? { id: h.history.within, name: h.history.within_name ?? "", level: levelOf(h.history.within) } : null,
      predecessors: h.predecessors.map((p) => {
        const last = p.editions === null ? null : lastOrd(p.editions);
        return {
          code: p.code,
          name: (last === null || p.names === null ? p.region_name : nameIn({ names: p.names }, last)) ?? "",
          last_edition: last === null ? null : (editions[last]?.id ?? null),
          basis: p.basis as Basis,
          confidence: confidence(p.confidence),
        };
      }),
      changes: [
        ...h.changes.map((c) => changeItem(c, editions)),
        ...(current ? corrections.filter((c) => c.region_id === id).flatMap((c) => correctionsOf(c, editions)) : []),
      ],
    },
  };
}

const correctionsOf = (c: CorrectionRow, editions: EditionRow[]) => {
  const current = editions.find((e) => e.is_current === 1);
  return current ? [correctionItem(c, current)] : [];
};

const badEdition = (param: "from" | "to", value: string, editions: EditionRow[]) => {
  const valid = editions.map((e) => e.id).join(", ");
  return new ApiError("INVALID_QUERY", `Unknown edition "${value.slice(0, 20)}" for ${param}; the editions are ${valid}.`, {
    details: [{ path: param, message: `one of ${valid}` }],
  });
};

/**
 * Checks the edition a code mapping file maps from (GET /changes/mapping): an edition of
 * wilayah_edition but the current one (its codes are today's). INVALID_QUERY naming the editions otherwise.
 */
export async function checkMappingEdition(reads: RegionReads, from: string): Promise<void> {
  const editions = await editionList(reads);
  const current = editions.find((e) => e.is_current === 1);
  if (!current) throw new ApiError("INTERNAL_ERROR", "The region history is not loaded.");
  const earlier = editions.filter((e) => e.is_current !== 1).map((e) => e.id);
  if (from === current.id) {
    throw new ApiError(
      "INVALID_QUERY",
      `Edition ${from} is the current one: its codes are today's codes, there is nothing to map. Give the edition your codes come from: ${earlier.join(", ")}.`,
      { details: [{ path: "from", message: `one of ${earlier.join(", ")}` }] },
    );
  }
  if (!earlier.includes(from)) {
    throw new ApiError("INVALID_QUERY", `Unknown edition "${from.slice(0, 20)}" for from; the earlier editions are ${earlier.join(", ")}.`, {
      details: [{ path: "from", message: `one of ${earlier.join(", ")}` }],
    });
  }
}

/** GET /changes: the changes between two editions (default: the previous one to the current one), paged in order. */
export async function listChanges(
  reads: RegionReads,
  opts: Paging & { from?: string; to?: string; level?: Level; change?: ChangeKind; kind?: "edition" | "correction" },
) {
  const { editions, runs, corrections } = await reference(reads);
  const current = editions.find((e) => e.is_current === 1);
  if (!current) throw new ApiError("INTERNAL_ERROR", "The region history is not loaded.");
  const to = opts.to === undefined ? current : editions.find((e) => e.id === opts.to);
  if (!to) throw badEdition("to", opts.to ?? "", editions);
  const from = opts.from === undefined ? editions[to.ord - 1] : editions.find((e) => e.id === opts.from);
  if (!from) {
    if (opts.from !== undefined) throw badEdition("from", opts.from, editions);
    throw new ApiError("INVALID_QUERY", `Edition ${to.id} is the first: there is nothing before it; give an edition after it as to.`, {
      details: [{ path: "to", message: "an edition after the first" }],
    });
  }
  if (from.ord >= to.ord) {
    throw new ApiError("INVALID_QUERY", `from (${from.id}) must be an earlier edition than to (${to.id}).`, {
      details: [{ path: "from", message: `earlier than ${to.id}` }],
    });
  }
  const w = pageWindow(opts);
  // The changes that show in the editions after `from` up to `to`, of the level and kind asked: runs of
  // seq, in order. The total is their sum; the page is the seq values it covers (docs/performance.md).
  const level = opts.level ? LEVELS.indexOf(opts.level) + 1 : undefined;
  const selected =
    opts.kind === "correction"
      ? []
      : runs.filter(
          (r) => r.edition > from.ord && r.edition <= to.ord && (level === undefined || r.level === level) && (!opts.change || r.change === opts.change),
        );
  // Corrections (kind correction, change corrected) follow the edition changes when the range ends at the current edition: they are made over it.
  const fixes =
    opts.kind === "edition" || to.is_current !== 1 || (opts.change && opts.change !== "corrected")
      ? []
      : corrections.filter((c) => level === undefined || c.level === level);
  const seqs: number[] = [];
  let skip = w.offset;
  let take = w.limit;
  for (const r of selected) {
    if (take <= 0) break;
    if (skip >= r.n) {
      skip -= r.n;
      continue;
    }
    const n = Math.min(r.n - skip, take);
    for (let k = 0; k < n; k++) seqs.push(r.first + skip + k);
    take -= n;
    skip = 0;
  }
  const rows = await changesBySeq(reads.db, seqs);
  const editionTotal = selected.reduce((n, r) => n + r.n, 0);
  // the page's corrections: those after the edition changes the window skipped or took
  const start = Math.max(0, w.offset - editionTotal);
  const fixed = fixes.slice(start, start + Math.max(0, w.limit - seqs.length)).map((c) => correctionItem(c, to));
  const total = editionTotal + fixes.length;
  return { data: [...rows.map((c) => changeItem(c, editions)), ...fixed], meta: { ...w.meta(total), from: from.id, to: to.id } };
}

/**
 * The codes of earlier editions each of these current codes succeeds, by current code (a village
 * that moved to a new kecamatan after a split: its code under the old kecamatan). One statement.
 */
export async function predecessors(db: RegionDb, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const r of await predecessorRows(db, ids)) out.set(r.new_id, [...(out.get(r.new_id) ?? []), r.old_id]);
  return out;
}

/** POST /convert: each code of any edition and level, in order: its status, its current region when there is exactly one, its successors. */
export async function convert(db: RegionDb, codes: string[]) {
  const ids = codes.map((c) => toDottedId(c));
  const rows = await convertCodes(
    db,
    ids.map((id) => id ?? ""),
  );
  return {
    data: codes.map((code, i) => {
      const id = ids[i];
      const row = rows[i];
      const region = row?.region ? (JSON.parse(row.region) as [string, number]) : null;
      if (id && region?.[1] === 1) return { code, id, status: "current" as const, current: { id, name: region[0], level: levelOf(id) }, successors: [] };
      if (!id || (!region && !row?.history)) return { code, id, status: "unknown" as const, current: null, successors: [] };
      const successors = (JSON.parse(row.successors) as [string, string, number, string | null][]).map(([sid, basis, c, name]) => ({
        id: sid,
        name: name ?? "",
        level: levelOf(sid),
        basis: basis as Basis,
        confidence: confidence(c),
      }));
      const one = successors.length === 1 ? successors[0] : null;
      return { code, id, status: "retired" as const, current: one ? { id: one.id, name: one.name, level: one.level } : null, successors };
    }),
  };
}

/** kabupaten/kota names in the older editions: `KAB. X`, `KOTA ADM. X`, `KABUPATEN X`. */
const KABUPATEN_PREFIX = /^(KABUPATEN ADMINISTRASI|KOTA ADMINISTRASI|KAB\.?\s*ADM\.?|KOTA\s*ADM\.?|KABUPATEN|KAB\.?|KOTA)\s+/i;

/**
 * By id of a code of an earlier edition that the region tables do not hold: its record as last
 * published (`is_active` 0, no coordinates or postal code: the sources have none for it) and
 * `replaced_by`, its successors' ids. Null: no edition holds the code.
 */
export async function retiredRecord(db: RegionDb, id: string, level: Level) {
  const { history, successors } = await retiredCode(db, id);
  if (!history) return null;
  const name = nameIn(history, lastOrd(history.editions)) ?? "";
  const base = { id, code: undotted(id), name, alt_name: name, lat: null, lng: null, is_active: 0 };
  // Population and area are not known for a code of an earlier edition (the list records carry them as null).
  const stats = { area_km2: null, population: null, density_per_km2: null };
  const record =
    level === "provinsi"
      ? { ...base, ...stats }
      : level === "kabupaten"
        ? {
            ...base,
            ...stats,
            alt_name: name.replace(KABUPATEN_PREFIX, ""),
            provinsi_id: parentAt(id, "provinsi"),
            type: /^kota\b/i.test(name) ? ("kota" as const) : ("kabupaten" as const),
          }
        : level === "kecamatan"
          ? { ...base, kabupaten_id: parentAt(id, "kabupaten") }
          : { ...base, kecamatan_id: parentAt(id, "kecamatan"), postal_code: null };
  return { ...record, replaced_by: successors };
}

/** The successors' ids of a retired code (`replaced_by` of a retired row of the region tables). */
export const replacedBy = (db: RegionDb, id: string) => successorIds(db, id);

// ---------------------------------------------------------------- one edition (webhooks, the Atom feed)

export type EditionSummary = {
  id: string;
  regulation: string;
  current: boolean;
  previous: string | null;
  counts: { total: number; by_change: Partial<Record<ChangeKind, number>>; by_level: Partial<Record<Level, number>> };
};

function summarise(e: EditionRow, editions: EditionRow[], runs: RunRow[]): EditionSummary {
  const by_change: Partial<Record<ChangeKind, number>> = {};
  const by_level: Partial<Record<Level, number>> = {};
  let total = 0;
  for (const r of runs) {
    if (r.edition !== e.ord) continue;
    total += r.n;
    by_change[r.change as ChangeKind] = (by_change[r.change as ChangeKind] ?? 0) + r.n;
    const level = levelName(r.level);
    by_level[level] = (by_level[level] ?? 0) + r.n;
  }
  return { id: e.id, regulation: e.regulation, current: e.is_current === 1, previous: editions[e.ord - 1]?.id ?? null, counts: { total, by_change, by_level } };
}

/** Every edition with its counts of changes (by kind and by level), newest first; reads nothing past the memo. */
export async function editionSummaries(reads: RegionReads): Promise<EditionSummary[]> {
  const { editions, runs } = await reference(reads);
  return editions.map((e) => summarise(e, editions, runs)).reverse();
}

/** The edition the API serves (is_current = 1), summarised; undefined when no history is loaded. */
export async function currentEdition(reads: RegionReads): Promise<EditionSummary | undefined> {
  return (await editionSummaries(reads)).find((e) => e.current);
}

/** One edition, summarised; undefined for an unknown id. */
export async function editionSummary(reads: RegionReads, id: string): Promise<EditionSummary | undefined> {
  return (await editionSummaries(reads)).find((e) => e.id === id);
}

/** Every change that shows in one edition (since the edition before it), in the order of /changes: one range of seq, read by rowid. */
export async function changesOfEdition(reads: RegionReads, id: string) {
  const { editions, runs } = await reference(reads);
  const e = editions.find((x) => x.id === id);
  if (!e) return [];
  const own = runs.filter((r) => r.edition === e.ord);
  if (own.length === 0) return [];
  const first = Math.min(...own.map((r) => r.first));
  const last = Math.max(...own.map((r) => r.first + r.n - 1));
  return (await changesInSeqRange(reads.db, first, last)).map((c) => changeItem(c, editions));
}
