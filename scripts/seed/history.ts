/**
 * Ten years of region codes: what the seed derives from the six editions of the national code list
 * (seed/sources/wilayah-editions.csv.gz, attribution in seed/sources/README.md) and the curated
 * formations (seed/history-curated.csv). Pure and deterministic: the same files give the same
 * result, byte for byte; nothing here reads the clock, the network or the database.
 *
 *   node scripts/boot.mjs node scripts/seed/history.ts            # prints the resolution report
 *   node scripts/boot.mjs node scripts/seed/history.ts --sql FILE # also writes the INSERT SQL
 *
 * What it derives (docs/history-method.md says why each rule is there):
 *  - every code that ever existed, with the editions it appears in and its name in each;
 *  - the change events between consecutive editions (created, retired, renamed, recoded, split, merged);
 *  - for every code that is not current, its successors among the current codes (chained through
 *    the editions), each with a `basis` and a `confidence`; for every current code its predecessors;
 *  - the resolution report (one / several / no successor, per level and edition).
 *
 * Confidence scale (the same in docs/history-method.md). `confidence` estimates how likely a place
 * that carried the old code now lies in the successor; a split's successors share it, so the
 * confidences of one old code never add up to more than 1. Per step between two editions:
 *   1.00  curated: a row of seed/history-curated.csv (the law that formed the region says so)
 *   0.95  same_name: the same name (normalised) under its parent or the parent's successor, one candidate
 *   0.90  same_name after a tie broken by the same last code segment, the village status digit
 *         (kelurahan 1, desa 2) or a namesake another old code alone claims
 *   0.85  same_name_elsewhere: the same name, one candidate, elsewhere in the same kabupaten
 *         (villages) or province (kecamatan), when the parent's successors had none
 *   0.70  same_name, but the namesake is a region that already existed (the code was folded into it)
 *   0.90 x share   children / split: where its children (villages, kecamatan) went, by name;
 *         one successor (`children`) or several (`split`), each with its share of the children
 *   0.50 .. 0.85  similar_name: a name within a small edit distance under the parent's successor
 *         (the closer the spelling and the same last code segment, the higher)
 *   0.60 .. 0.72  name_part: the old name inside a longer new name (villages merged under a joined name)
 *   0.5 / n  same_name with n candidates that nothing tells apart (each is listed, none is picked)
 * A chain of steps (a code moved in 2022b and again in 2025) multiplies its steps' confidences;
 * its `basis` is the basis of its weakest step (the first one on ties) and `via` lists the codes between.
 * Boundaries and centroids are not used: the sources hold geometry only for the current codes, so
 * they cannot place a retired code (docs/history-method.md).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMain, root, seedDirArg } from "../lib.ts";
import {
  type Basis,
  CHANGES,
  type Change,
  csvFields,
  type Editions,
  type HistoryInputs,
  LEVEL_NAMES,
  levelOfCode,
  parentOf,
  readHistoryInputs,
} from "./history-editions.ts";
import { nameKeysOf } from "./history-names.ts";
import { formerNames, historyRows, historySql } from "./history-storage.ts";
import {
  byCode,
  type ChangeEvent,
  type CodeRecord,
  type History,
  type Link,
  must,
  type Predecessor,
  pushTo,
  type Report,
  type ReportRow,
  resolveTransition,
  round2,
  type Successor,
} from "./history-transition.ts";

// ---------------------------------------------------------------- all editions

export function buildHistory({ editions, lists: byEdition, curated }: HistoryInputs): History {
  const lists = editions.map((e) => must(byEdition.get(e.id), `edition ${e.id}`));
  const currentOrd = editions.length - 1;
  const codes = new Map<string, CodeRecord>();
  lists.forEach((list, i) => {
    for (const [code, name] of list) {
      const r = codes.get(code) ?? { code, level: levelOfCode(code), mask: 0, names: [], current: false };
      codes.set(code, r);
      r.mask |= 1 << i;
      const same = r.names.find((n) => n.name === name);
      if (same) same.mask |= 1 << i;
      else r.names.push({ mask: 1 << i, name });
    }
  });
  for (const r of codes.values()) r.current = (r.mask & (1 << currentOrd)) !== 0;

  const steps: Map<string, Link[]>[] = [];
  const parts: Map<string, Map<string, Basis>>[] = [];
  const keys = lists.map(nameKeysOf);
  for (let i = 0; i < currentOrd; i++) {
    const t = resolveTransition(
      lists[i],
      lists[i + 1],
      curated.filter((c) => c.edition === editions[i + 1].id),
      keys[i],
      keys[i + 1],
    );
    steps.push(t.links);
    parts.push(t.parts);
  }

  const events = changeEvents(lists, keys, steps, parts);

  // Chains: follow each step to the edition where the code reached stays until the current one.
  // A path ends at a current code, or (code null) at a code that left with no successor.
  type Path = { code: string | null; steps: Link[] };
  const resolve = (code: string, from: number, seen: string[]): Path[] => {
    let i = from;
    while (i < currentOrd && lists[i + 1].has(code)) i++;
    if (i === currentOrd) return [{ code, steps: [] }];
    const next = (steps[i].get(code) ?? []).filter((l) => !seen.includes(l.to));
    if (next.length === 0) return [{ code: null, steps: [] }];
    return next.flatMap((l) => resolve(l.to, i + 1, [...seen, l.to]).map((p) => ({ code: p.code, steps: [l, ...p.steps] })));
  };
  const successorsOf = (paths: Path[]): Successor[] => {
    const out = new Map<string, Successor>();
    for (const p of paths) {
      if (p.code === null) continue;
      const weakest = p.steps.reduce((w, s) => (s.confidence < w.confidence ? s : w));
      const confidence = p.steps.reduce((c, s) => c * s.confidence, 1);
      const m = out.get(p.code);
      // one successor reached along two paths: kept once, the confidences added, the stronger path shown
      if (m && m.confidence >= confidence) m.confidence += confidence;
      else out.set(p.code, { code: p.code, basis: weakest.basis, confidence: confidence + (m?.confidence ?? 0), via: p.steps.slice(0, -1).map((s) => s.to) });
    }
    return [...out.values()]
      .map((s) => ({ ...s, confidence: round2(Math.min(1, s.confidence)) }))
      .sort((a, b) => b.confidence - a.confidence || byCode(a.code, b.code));
  };

  const successors = new Map<string, Successor[]>();
  const predecessors = new Map<string, Predecessor[]>();
  const within = new Map<string, string | null>();
  const deadEnds = new Map<string, "some" | "all">();
  const notCurrent = [...codes.values()].filter((r) => !r.current).sort((a, b) => byCode(a.code, b.code));
  for (const r of notCurrent) {
    const last = 31 - Math.clz32(r.mask);
    const paths = resolve(r.code, last, [r.code]);
    const s = successorsOf(paths);
    successors.set(r.code, s);
    // told in the report: chains that went somewhere and ended at a later retirement
    if (paths.some((p) => p.code === null && p.steps.length > 0)) deadEnds.set(r.code, s.length > 0 ? "some" : "all");
    for (const x of s) {
      pushTo(predecessors, x.code, { code: r.code, basis: x.basis, confidence: x.confidence, lastEdition: editions[last].id });
    }
  }
  for (const list of predecessors.values()) list.sort((a, b) => byCode(a.code, b.code));
  // The deepest current region holding every successor; with none, the nearest resolved ancestor's.
  const withinOf = (code: string): string | null => {
    const s = successors.get(code);
    if (s?.length) {
      let common = s[0].code;
      for (const x of s.slice(1)) while (common && !(x.code === common || x.code.startsWith(`${common}.`))) common = parentOf(common) ?? "";
      return common || null;
    }
    const p = parentOf(code);
    if (p === null) return null;
    return codes.get(p)?.current ? p : withinOf(p);
  };
  for (const r of notCurrent) within.set(r.code, withinOf(r.code));

  return { editions, codes, steps, events, successors, predecessors, within, report: buildReport(editions, codes, lists, successors, events, deadEnds) };
}

/** The events between consecutive editions, from the steps (which code went where) and the names. */
function changeEvents(
  lists: Map<string, string>[],
  keys: Map<string, string>[],
  steps: Map<string, Link[]>[],
  parts: Map<string, Map<string, Basis>>[],
): ChangeEvent[] {
  const events: ChangeEvent[] = [];
  for (let i = 0; i + 1 < lists.length; i++) {
    const [A, B] = [lists[i], lists[i + 1]];
    const nameA = (code: string) => must(A.get(code), code);
    const nameB = (code: string) => must(B.get(code), code);
    const links = steps[i];
    const incoming = new Map<string, string[]>();
    for (const [x, ls] of links) for (const l of ls) incoming.set(l.to, [...(incoming.get(l.to) ?? []), x]);
    const ev = (e: Omit<ChangeEvent, "edition" | "level">, code: string) => events.push({ edition: i + 1, level: levelOfCode(code), ...e });
    for (const code of [...A.keys()].sort(byCode)) {
      if (B.has(code)) {
        if (keys[i].get(code) !== keys[i + 1].get(code)) {
          ev({ change: "renamed", codeBefore: code, nameBefore: nameA(code), codeAfter: code, nameAfter: nameB(code), basis: null, confidence: null }, code);
        }
        continue;
      }
      const ls = links.get(code) ?? [];
      if (ls.length === 0)
        ev({ change: "retired", codeBefore: code, nameBefore: nameA(code), codeAfter: null, nameAfter: null, basis: null, confidence: null }, code);
      for (const l of ls) {
        // several links are a split only when the children say so; a tie of namesakes stays one
        // `recoded` row per candidate, each with its share of the confidence
        const change: Change = l.basis === "split" ? "split" : (incoming.get(l.to)?.length ?? 0) > 1 || A.has(l.to) ? "merged" : "recoded";
        ev({ change, codeBefore: code, nameBefore: nameA(code), codeAfter: l.to, nameAfter: nameB(l.to), basis: l.basis, confidence: l.confidence }, code);
      }
    }
    for (const code of [...B.keys()].sort(byCode)) {
      if (A.has(code) || incoming.has(code)) continue;
      const from = [...(parts[i].get(code) ?? [])].sort(([a], [b]) => byCode(a, b));
      const base = { change: "created" as const, codeAfter: code, nameAfter: nameB(code), confidence: null };
      if (from.length === 0) ev({ ...base, codeBefore: null, nameBefore: null, basis: null }, code);
      // created from part of a region that stays: the region it came from is told, not as a predecessor
      for (const [f, basis] of from) ev({ ...base, codeBefore: f, nameBefore: nameA(f), basis }, code);
    }
  }
  const order = (e: ChangeEvent) => `${e.edition}|${e.level}|${CHANGES.indexOf(e.change)}|${e.codeBefore ?? ""}|${e.codeAfter ?? ""}`;
  return events
    .map((e) => ({ e, k: order(e) }))
    .sort((a, b) => byCode(a.k, b.k))
    .map((x) => x.e);
}

function buildReport(
  known: Editions,
  codes: Map<string, CodeRecord>,
  lists: Map<string, string>[],
  successors: Map<string, Successor[]>,
  events: ChangeEvent[],
  deadEnds: Map<string, "some" | "all">,
): Report {
  const ord = (id: string) => known.findIndex((e) => e.id === id);
  const editions = known.map((e, i) => {
    const counts: [number, number, number, number] = [0, 0, 0, 0];
    for (const code of lists[i].keys()) counts[levelOfCode(code) - 1]++;
    return { id: e.id, counts, total: lists[i].size };
  });
  const rows = new Map<string, ReportRow>();
  const byBasis: Record<string, number> = {};
  for (const [code, s] of successors) {
    const r = must(codes.get(code), code);
    const edition = known[31 - Math.clz32(r.mask)].id;
    const k = `${r.level}|${edition}`;
    const row = rows.get(k) ?? { level: r.level, edition, one: 0, several: 0, none: 0, total: 0 };
    rows.set(k, row);
    row.total++;
    if (s.length === 0) row.none++;
    else if (s.length === 1) row.one++;
    else row.several++;
    const b = s.length === 0 ? "none" : s.length === 1 ? s[0].basis : "several";
    byBasis[b] = (byBasis[b] ?? 0) + 1;
  }
  const eventCounts = Object.fromEntries(CHANGES.map((c) => [c, 0])) as Record<Change, number>;
  for (const e of events) eventCounts[e.change]++;
  return {
    editions,
    totalCodes: codes.size,
    notCurrent: successors.size,
    chainEnded: {
      all: [...deadEnds]
        .filter(([, v]) => v === "all")
        .map(([k]) => k)
        .sort(byCode),
      some: [...deadEnds]
        .filter(([, v]) => v === "some")
        .map(([k]) => k)
        .sort(byCode),
    },
    rows: [...rows.values()].sort((a, b) => a.level - b.level || ord(a.edition) - ord(b.edition)),
    byBasis: Object.fromEntries(Object.entries(byBasis).sort(([a], [b]) => byCode(a, b))),
    transitions: known.slice(1).map((e, i) => ({
      from: known[i].id,
      to: e.id,
      retired: [...lists[i].keys()].filter((c) => !lists[i + 1].has(c)).length,
      appeared: [...lists[i + 1].keys()].filter((c) => !lists[i].has(c)).length,
    })),
    events: eventCounts,
  };
}

export function renderReport(r: Report): string {
  const out: string[] = [];
  const n = (x: number) => x.toLocaleString("en-US");
  out.push("Editions (provinsi / kabupaten-kota / kecamatan / kelurahan-desa = total):");
  for (const e of r.editions) out.push(`  ${e.id.padEnd(6)} ${e.counts.map(n).join(" / ")} = ${n(e.total)}`);
  out.push(`Codes that ever existed: ${n(r.totalCodes)}; not current: ${n(r.notCurrent)}`);
  out.push("Between editions (codes that left / appeared):");
  for (const t of r.transitions) out.push(`  ${t.from} -> ${t.to}: ${n(t.retired)} / ${n(t.appeared)}`);
  out.push("Non-current codes by level and last edition: one successor / several / none (total)");
  for (const row of r.rows)
    out.push(`  ${LEVEL_NAMES[row.level].padEnd(9)} ${row.edition.padEnd(6)} ${n(row.one)} / ${n(row.several)} / ${n(row.none)} (${n(row.total)})`);
  const sum = (f: (x: ReportRow) => number) => n(r.rows.reduce((s, x) => s + f(x), 0));
  out.push(`  all                ${sum((x) => x.one)} / ${sum((x) => x.several)} / ${sum((x) => x.none)} (${sum((x) => x.total)})`);
  out.push(
    `By basis (one successor: its basis; several; none): ${Object.entries(r.byBasis)
      .map(([k, v]) => `${k} ${n(v)}`)
      .join(", ")}`,
  );
  out.push(
    `Chains that moved on, then ended at a retirement: all of a code's chains ${r.chainEnded.all.length} (${r.chainEnded.all.join(", ") || "-"}), some ${r.chainEnded.some.length}`,
  );
  out.push(`Change events: ${CHANGES.map((c) => `${c} ${n(r.events[c])}`).join(", ")}`);
  return `${out.join("\n")}\n`;
}

// ---------------------------------------------------------------- CLI

/** The region tables' names (idn-area-data 4.0.1's CSVs), for `historyRows`. */
export function readCurrentNames(): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of ["provinces", "regencies", "districts", "villages"]) {
    const lines = readFileSync(join(root, "node_modules", "idn-area-data", "data", `${f}.csv`), "utf8").split(/\r?\n/);
    const header = csvFields(lines[0]);
    const [ci, ni] = [header.indexOf("code"), header.indexOf("name")];
    for (const line of lines.slice(1)) {
      if (!line) continue;
      const fields = csvFields(line);
      out.set(fields[ci], fields[ni]);
    }
  }
  return out;
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf("--sql");
  const h = buildHistory(readHistoryInputs(seedDirArg(args)));
  process.stdout.write(renderReport(h.report));
  const rows = historyRows(h, readCurrentNames());
  const sql = historySql(rows);
  const statements = sql.split("\n").filter((l) => l.startsWith("INSERT")).length;
  const former = formerNames(h, readCurrentNames());
  process.stdout.write(`Former names for search: ${[...former.values()].reduce((n, l) => n + l.length, 0)} names of ${former.size} current codes\n`);
  process.stdout.write(
    `SQL: ${(Buffer.byteLength(sql) / 1e6).toFixed(2)} MB in ${statements} INSERT statements; rows: wilayah_edition ${rows.editions.length}, wilayah_history ${rows.history.length}, wilayah_successor ${rows.successors.length}, wilayah_change ${rows.changes.length}, wilayah_change_run ${rows.runs.length}\n`,
  );
  if (at >= 0) {
    if (!args[at + 1]) throw new Error("--sql needs a file path");
    writeFileSync(args[at + 1], sql);
  }
}

if (isMain(import.meta.url)) main();
