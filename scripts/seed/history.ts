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
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { insertStatements, isMain, sqlString } from "../lib.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const EDITIONS_FILE = join(ROOT, "seed", "sources", "wilayah-editions.csv.gz");
export const CURATED_FILE = join(ROOT, "seed", "history-curated.csv");

/** The six editions, oldest first; the regulation of each as the source repository states it. */
export const EDITIONS = [
  { id: "2015", regulation: "Permendagri 56/2015" },
  { id: "2017", regulation: "Permendagri 137/2017" },
  { id: "2020", regulation: "Permendagri 72/2019 as revised by Kepmendagri 146.1-4717/2020" },
  { id: "2022", regulation: "Permendagri 58/2021 as revised by Kepmendagri 050-145/2022" },
  { id: "2022b", regulation: "Kepmendagri 100.1.1-6117/2022" },
  { id: "2025", regulation: "Kepmendagri 300.2.2-2138/2025 as amended by 300.2.2-2430/2025" },
] as const;
export type EditionId = (typeof EDITIONS)[number]["id"];
const EDITION_INDEX = new Map<string, number>(EDITIONS.map((e, i) => [e.id, i]));
const CURRENT = EDITIONS.length - 1;
/** Bit i of an edition mask is EDITIONS[i]. */
export const ALL_EDITIONS_MASK = (1 << EDITIONS.length) - 1;

/** 1 provinsi, 2 kabupaten/kota, 3 kecamatan, 4 kelurahan/desa. */
export type LevelNo = 1 | 2 | 3 | 4;
export const LEVEL_NAMES = ["", "provinsi", "kabupaten", "kecamatan", "kelurahan"] as const;
const LEVEL_BY_LENGTH: Record<number, LevelNo> = { 2: 1, 5: 2, 8: 3, 13: 4 }; // 32, 32.73, 32.73.09, 32.73.09.1001
export const levelOfCode = (code: string): LevelNo => LEVEL_BY_LENGTH[code.length] ?? (code.split(".").length as LevelNo);
const parentOf = (code: string) => (code.includes(".") ? code.slice(0, code.lastIndexOf(".")) : null);
const lastSegment = (code: string) => code.slice(code.lastIndexOf(".") + 1);
/** The province, kabupaten or kecamatan prefix of a code (`level` 1-3), or the code itself when shorter. */
const ancestorAt = (code: string, level: number) => code.split(".").slice(0, level).join(".");
/**
 * The same number within the parent: a village's last three digits (its first digit tells
 * kelurahan 1, desa 2, desa adat 3, which a change of status alters), a whole segment above.
 */
const level4 = (code: string) => levelOfCode(code) === 4;
const sameSuffix = (a: string, b: string) => (levelOfCode(a) === 4 ? lastSegment(a).slice(1) === lastSegment(b).slice(1) : lastSegment(a) === lastSegment(b));

export type Basis = "curated" | "same_name" | "same_name_elsewhere" | "children" | "split" | "similar_name" | "name_part";
export type Change = "created" | "retired" | "renamed" | "recoded" | "split" | "merged";
export const CHANGES: readonly Change[] = ["created", "retired", "renamed", "recoded", "split", "merged"];

// ---------------------------------------------------------------- parsing

/** One CSV record's fields (RFC 4180 quoting: `"a, b"`, `""` inside quotes). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let s = "";
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error(`CSV: unterminated quote in ${JSON.stringify(line)}`);
        s += line.slice(i, q);
        if (line[q + 1] === '"') {
          s += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(s);
      if (i < line.length && line[i] !== ",") throw new Error(`CSV: text after a closing quote in ${JSON.stringify(line)}`);
      i++;
    } else {
      const c = line.indexOf(",", i);
      const end = c < 0 ? line.length : c;
      out.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

const CODE = /^\d{2}(\.\d{2}(\.\d{2}(\.\d{4})?)?)?$/;

/** edition -> code -> name, from the `edition,code,name` CSV. Throws naming the line on anything malformed or repeated. */
export function parseEditions(csv: string): Map<EditionId, Map<string, string>> {
  const lines = csv.split(/\r?\n/);
  if (lines[0] !== "edition,code,name") throw new Error(`editions CSV: line 1 must be "edition,code,name", got "${lines[0]}"`);
  const out = new Map<EditionId, Map<string, string>>(EDITIONS.map((e) => [e.id, new Map()]));
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === "") continue;
    const f = csvFields(lines[i]);
    const list = out.get(f[0] as EditionId);
    if (f.length !== 3 || !list || !CODE.test(f[1]) || f[2].trim() === "") throw new Error(`editions CSV: line ${i + 1} rejected: ${lines[i]}`);
    if (list.has(f[1])) throw new Error(`editions CSV: line ${i + 1}: ${f[1]} repeated in edition ${f[0]}`);
    list.set(f[1], f[2]);
  }
  return out;
}

export const readEditions = (file = EDITIONS_FILE) => parseEditions(gunzipSync(readFileSync(file)).toString("utf8"));

/**
 * A row of seed/history-curated.csv. `successor`: old_code left the list in `edition` and its region
 * is new_code from then on. `part`: new_code first appears in `edition`, formed from part of old_code,
 * which stays (a province split off from Papua).
 */
export type CuratedRow = { edition: EditionId; oldCode: string; newCode: string; relation: "successor" | "part"; source: string };

export function parseCurated(csv: string): CuratedRow[] {
  const lines = csv.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines[0] !== "edition,old_code,new_code,relation,source") throw new Error(`curated CSV: line 1 must be "edition,old_code,new_code,relation,source"`);
  return lines.slice(1).map((line, i) => {
    const [edition, oldCode, newCode, relation, source, ...rest] = csvFields(line);
    if (
      !EDITION_INDEX.get(edition) ||
      !CODE.test(oldCode) ||
      !CODE.test(newCode) ||
      (relation !== "successor" && relation !== "part") ||
      !source?.trim() ||
      rest.length
    ) {
      throw new Error(`curated CSV: line ${i + 2} rejected (a later edition, two codes, successor|part and a source are required): ${line}`);
    }
    return { edition: edition as EditionId, oldCode, newCode, relation, source };
  });
}

export const readCurated = (file = CURATED_FILE) => parseCurated(readFileSync(file, "utf8"));

// ---------------------------------------------------------------- names

/**
 * The name as compared between editions: case, accents, spacing and punctuation ignored, the
 * editions' abbreviations spelled out (`KAB.`, `ADM.`, `KEP.`, `DKI`), and a kabupaten/kota keeps its
 * kind, so that Kota Sorong and Kabupaten Sorong stay two names.
 */
export function nameKey(level: LevelNo, name: string): string {
  // most names repeat in every edition: each is worked out once
  const memo = `${level}${name}`;
  let key = nameKeys.get(memo);
  if (key === undefined) {
    key = computeNameKey(level, name);
    nameKeys.set(memo, key);
  }
  return key;
}
const nameKeys = new Map<string, string>();

/** code -> nameKey of its name, for one edition's list. */
export const nameKeysOf = (list: Map<string, string>) => new Map([...list].map(([code, name]) => [code, nameKey(levelOfCode(code), name)]));

function computeNameKey(level: LevelNo, name: string): string {
  let s = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
  s = s.replace(/\bkep\.\s*/g, "kepulauan ").replace(/^dki\b/, "daerah khusus ibukota");
  let kind = "";
  if (level === 2) {
    const m = /^(kabupaten|kab\.?|kota)(\s+(administrasi|adm\.?))?\s+/.exec(s);
    kind = m?.[1] === "kota" ? "kota:" : "kabupaten:";
    if (m) s = s.slice(m[0].length);
  }
  // Papua's customary villages (2022b) carry the prefix in their name; the place is the same.
  if (level === 4) s = s.replace(/^desa adat\s+/, "");
  // A number after a word: `Dagai Dua`, `Dagai II` and `Dagai 2` are one name, `Simpang Empat Tanjung`
  // and `Simpang IV Tanjung` too. Between words of two letters or more only, so that the spaced
  // letters of `R a i n i s` stay letters.
  s = s.replace(/\s*([-/])\s*/g, "$1");
  s = s.replace(/(?<=[a-z0-9]{2}[ -])(i{1,3}|iv|vi{0,3}|ix|x|satu|dua|tiga|empat|lima|enam|tujuh|delapan|sembilan|sepuluh)(?=$|[ /-][a-z0-9]{2})/g, (w) =>
    String(NUMBER_WORDS[w]),
  );
  return kind + s.replace(/[^a-z0-9]/g, "");
}

const NUMBER_WORDS: Record<string, number> = {
  ...Object.fromEntries(["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"].map((w, i) => [w, i + 1])),
  ...Object.fromEntries(["satu", "dua", "tiga", "empat", "lima", "enam", "tujuh", "delapan", "sembilan", "sepuluh"].map((w, i) => [w, i + 1])),
};

/** Levenshtein distance (names are short: plain two-row dynamic programming). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The smallest edit distance between `part` and any stretch of `whole` (Sellers): how far `part`
 * is from appearing inside `whole`. Villages merged into one are often named by joining their names.
 */
export function partDistance(part: string, whole: string): number {
  let prev = new Array<number>(whole.length + 1).fill(0);
  for (let i = 1; i <= part.length; i++) {
    const cur = [i];
    for (let j = 1; j <= whole.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (part[i - 1] === whole[j - 1] ? 0 : 1));
    prev = cur;
  }
  return Math.min(...prev);
}

/** 1 for equal keys, 0 for nothing in common: 1 - distance / longer length. */
export const similarity = (a: string, b: string) => (a.length || b.length ? 1 - editDistance(a, b) / Math.max(a.length, b.length) : 1);

/** Below this similarity a spelling is not taken for the same name. */
export const SIMILAR_MIN = 0.75;
/** `name_part`: the old name (at least this many letters) inside a new name at least this much longer ... */
const PART_MIN_LENGTH = 5;
/** ... within this similarity (1 - distance / old length). */
const PART_MIN = 0.85;
/** The best similar name must beat the second best by this much, or nothing is picked. */
const SIMILAR_MARGIN = 0.1;

// ---------------------------------------------------------------- model

export type CodeRecord = {
  code: string;
  level: LevelNo;
  /** Bit i set: the code is in EDITIONS[i]. */
  mask: number;
  /** The code's names in edition order, one entry per distinct spelling with the editions that use it. */
  names: { mask: number; name: string }[];
  current: boolean;
};

export type Link = { to: string; basis: Basis; confidence: number };

export type ChangeEvent = {
  /** Index into EDITIONS of the edition the change first shows in (1..5). */
  edition: number;
  level: LevelNo;
  change: Change;
  codeBefore: string | null;
  nameBefore: string | null;
  codeAfter: string | null;
  nameAfter: string | null;
  basis: Basis | null;
  confidence: number | null;
};

export type Successor = { code: string; basis: Basis; confidence: number; via: string[] };
export type Predecessor = { code: string; basis: Basis; confidence: number; lastEdition: EditionId };

export type ReportRow = { level: LevelNo; edition: EditionId; one: number; several: number; none: number; total: number };
export type Report = {
  editions: { id: EditionId; counts: [number, number, number, number]; total: number }[];
  totalCodes: number;
  notCurrent: number;
  /**
   * Codes whose chain moved on and then ended at a code that left with no successor: `all` their
   * chains (counted under "none"), or `some` (the successors listed are the chains that arrived).
   */
  chainEnded: { all: string[]; some: string[] };
  /** Non-current codes per level and last edition they appear in, by how they resolve. */
  rows: ReportRow[];
  byBasis: Record<string, number>;
  /** Transitions: codes that left and codes that appeared between consecutive editions. */
  transitions: { from: EditionId; to: EditionId; retired: number; appeared: number }[];
  events: Record<Change, number>;
};

export type History = {
  codes: Map<string, CodeRecord>;
  /** Per transition i (EDITIONS[i] -> EDITIONS[i+1]): each retired code's successors in EDITIONS[i+1]. */
  steps: Map<string, Link[]>[];
  events: ChangeEvent[];
  successors: Map<string, Successor[]>;
  predecessors: Map<string, Predecessor[]>;
  /** For every non-current code: the deepest current region known to hold all of it (null: none known). */
  within: Map<string, string | null>;
  report: Report;
};

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A value the derivation knows is there (a code's name in its own edition, a resolved parent): a broken invariant throws, naming it. */
function must<T>(v: T | null | undefined, what: string): T {
  if (v === null || v === undefined) throw new Error(`history: ${what} is missing`);
  return v;
}
/** Appends to the list kept under `key`. */
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
const round2 = (x: number) => Math.round(x * 100) / 100;

// ---------------------------------------------------------------- one transition

/**
 * The successors, in edition b, of the codes that edition a has and b has not. Top-down by level,
 * so a code's parent is resolved before the code: its successor is looked for under the parent's
 * successor first. Returns the links and the regions each new code was formed from (`parts`:
 * a new region in b -> the continuing regions of a that gave it children).
 */
export function resolveTransition(
  A: Map<string, string>,
  B: Map<string, string>,
  curated: CuratedRow[],
  keyA: Map<string, string> = nameKeysOf(A),
  keyB: Map<string, string> = nameKeysOf(B),
): { links: Map<string, Link[]>; parts: Map<string, Map<string, Basis>> } {
  const links = new Map<string, Link[]>();
  const parts = new Map<string, Map<string, Basis>>();
  const addPart = (newCode: string, from: string, basis: Basis) => {
    const of = parts.get(newCode) ?? new Map<string, Basis>();
    parts.set(newCode, of);
    if (!of.has(from)) of.set(from, basis);
  };
  for (const c of curated) {
    if (c.relation === "successor") {
      if (!A.has(c.oldCode) || B.has(c.oldCode) || !B.has(c.newCode))
        throw new Error(`curated ${c.oldCode} -> ${c.newCode} (${c.edition}): the old code must leave and the new one exist in that edition`);
      links.set(c.oldCode, [...(links.get(c.oldCode) ?? []), { to: c.newCode, basis: "curated", confidence: 1 }]);
    } else {
      if (!A.has(c.oldCode) || !B.has(c.oldCode) || A.has(c.newCode) || !B.has(c.newCode))
        throw new Error(`curated part ${c.oldCode} -> ${c.newCode} (${c.edition}): the old code must stay and the new one be new`);
      addPart(c.newCode, c.oldCode, "curated");
    }
  }

  // Codes of b per level and parent, with their name keys.
  const childrenInB = new Map<string, string[]>(); // parent ("" for provinces) -> codes
  for (const code of [...B.keys()].sort(byCode)) {
    pushTo(childrenInB, parentOf(code) ?? "", code);
  }
  const isNew = (code: string) => !A.has(code);

  /** The regions of b that can hold what `parent` (a code of a) held: itself and what was formed from it, or its successors. */
  const parentScope = (parent: string | null): string[] => {
    if (parent === null) return [""];
    const out = new Set<string>();
    if (B.has(parent)) out.add(parent);
    else for (const l of links.get(parent) ?? []) out.add(l.to);
    for (const [n, from] of parts) if (from.has(parent)) out.add(n);
    return [...out].sort(byCode);
  };
  /** The wider area where a code's namesake may have moved: the same kabupaten for villages, the same province above. */
  const areaScope = (code: string): string[] => {
    const level = levelOfCode(code);
    if (level <= 2) return parentScope(parentOf(code)); // a kabupaten: its province (and the provinces formed from it)
    const areaLevel = level === 4 ? 2 : 1;
    const area = parentScope(ancestorAt(code, areaLevel));
    // every code of b at level-1 under those areas
    let frontier = area;
    for (let l = areaLevel; l < level - 1; l++) frontier = frontier.flatMap((p) => childrenInB.get(p) ?? []);
    return frontier;
  };
  const candidatesUnder = (scope: string[], level: LevelNo) => scope.flatMap((p) => (childrenInB.get(p) ?? []).filter((c) => levelOfCode(c) === level));

  const retired = [...A.keys()].filter((c) => !B.has(c)).sort((a, b) => levelOfCode(a) - levelOfCode(b) || byCode(a, b));
  const claimed = new Set<string>(); // new codes taken by a match
  const partClaimed = new Set<string>(); // ... by a `name_part` match, which several old codes may share
  for (const level of [1, 2, 3, 4] as LevelNo[]) {
    const here = retired.filter((c) => levelOfCode(c) === level);

    // The regions formed from a continuing parent, seen from the children that moved into them:
    // a village of a continuing kecamatan found by name (one candidate) under a new kecamatan
    // of the same kabupaten says the new kecamatan was formed from part of the old one.
    for (const x of here) {
      const p = parentOf(x);
      if (links.has(x) || p === null || !B.has(p)) continue;
      const found = candidatesUnder(areaScope(x), level).filter((y) => isNew(y) && keyB.get(y) === keyA.get(x));
      if (found.length === 1) {
        const np = must(parentOf(found[0]), `parent of ${found[0]}`);
        if (isNew(np) && np !== p) addPart(np, p, "children");
      }
    }

    // Exact names: under the parent's successors, then in the wider area. Namesakes that one
    // old code alone matches are taken first, so they drop out of the others' candidates.
    for (const x of here) for (const l of links.get(x) ?? []) claimed.add(l.to);
    const freshOf = new Map<string, string[]>();
    for (const x of here) {
      if (links.has(x)) continue;
      const fresh = candidatesUnder(parentScope(parentOf(x)), level).filter((y) => isNew(y) && keyB.get(y) === keyA.get(x));
      freshOf.set(x, fresh);
      if (fresh.length === 1) claimed.add(fresh[0]);
    }
    const unresolved: string[] = [];
    for (const x of here) {
      if (links.has(x)) continue;
      const key = must(keyA.get(x), `name of ${x}`);
      const scoped = candidatesUnder(parentScope(parentOf(x)), level).filter((y) => keyB.get(y) === key);
      let fresh = freshOf.get(x) ?? [];
      let confidence = 0.95;
      if (fresh.length > 1 && fresh.some((y) => !claimed.has(y))) {
        fresh = fresh.filter((y) => !claimed.has(y));
        confidence = 0.9;
      }
      let picked = pickExact(x, fresh, "same_name", confidence);
      if (!picked && fresh.length === 0) {
        const wider = candidatesUnder(areaScope(x), level).filter((y) => isNew(y) && keyB.get(y) === key);
        picked = pickExact(x, wider, "same_name_elsewhere", 0.85);
        // Folded into a namesake that already existed under the same parent (a duplicate dropped).
        if (!picked && wider.length === 0 && scoped.length === 1) picked = [{ to: scoped[0], basis: "same_name", confidence: 0.7 }];
      }
      if (picked) {
        links.set(x, picked);
        for (const l of picked) claimed.add(l.to);
      } else unresolved.push(x);
    }

    // Children (kabupaten, kecamatan): where their villages or kecamatan went, by exact name.
    const still: string[] = [];
    for (const x of unresolved) {
      const byChildren = level <= 3 ? childrenEvidence(x) : null;
      if (byChildren) links.set(x, byChildren);
      else still.push(x);
    }

    // Similar spellings under the parent's successors, among new codes no exact match took.
    const left: string[] = [];
    for (const x of still) {
      const key = must(keyA.get(x), `name of ${x}`);
      const scored = candidatesUnder(parentScope(parentOf(x)), level)
        .filter((y) => isNew(y) && !claimed.has(y))
        .map((y) => ({ y, s: similarity(key, must(keyB.get(y), `name of ${y}`)), suffix: sameSuffix(x, y) }))
        .filter((c) => c.s >= SIMILAR_MIN || (c.suffix && c.s >= SIMILAR_MIN - 0.15))
        .sort((a, b) => b.s - a.s || Number(b.suffix) - Number(a.suffix) || byCode(a.y, b.y));
      const [best, second] = scored;
      if (!best || (second && best.s - second.s < SIMILAR_MARGIN && !(best.suffix && !second.suffix))) {
        left.push(x);
        continue;
      }
      const confidence = round2(Math.min(0.85, 0.5 + (best.s - (SIMILAR_MIN - 0.15)) * 0.8 + (best.suffix ? 0.1 : 0)));
      links.set(x, [{ to: best.y, basis: "similar_name", confidence }]);
      claimed.add(best.y);
    }

    // Part of a longer new name under the parent's successors (villages merged under a joined name).
    for (const x of left) {
      const key = must(keyA.get(x), `name of ${x}`);
      if (key.length < PART_MIN_LENGTH) continue;
      const found = candidatesUnder(parentScope(parentOf(x)), level)
        .filter((y) => isNew(y) && (!claimed.has(y) || partClaimed.has(y)) && must(keyB.get(y), `name of ${y}`).length >= key.length + PART_MIN_LENGTH)
        .map((y) => ({ y, s: 1 - partDistance(key, must(keyB.get(y), `name of ${y}`)) / key.length }))
        .filter((c) => c.s >= PART_MIN);
      if (found.length !== 1) continue;
      links.set(x, [{ to: found[0].y, basis: "name_part", confidence: round2(0.6 + (found[0].s - PART_MIN) * 0.8) }]);
      claimed.add(found[0].y);
      partClaimed.add(found[0].y);
    }
  }
  return { links, parts };

  function pickExact(x: string, found: string[], basis: Basis, confidence: number): Link[] | null {
    if (found.length === 0) return null;
    if (found.length === 1) return [{ to: found[0], basis, confidence }];
    const bySuffix = found.filter((y) => sameSuffix(x, y));
    if (bySuffix.length === 1) return [{ to: bySuffix[0], basis, confidence: 0.9 }];
    // a village's status digit: kelurahan 1, desa 2
    const byStatus = level4(x) ? found.filter((y) => lastSegment(y)[0] === lastSegment(x)[0]) : [];
    if (byStatus.length === 1) return [{ to: byStatus[0], basis, confidence: 0.9 }];
    return found.map((to) => ({ to, basis, confidence: round2(0.5 / found.length) }));
  }

  /** Successors of a kabupaten or kecamatan from where its children went (one name match each). */
  function childrenEvidence(x: string): Link[] | null {
    const level = levelOfCode(x);
    const kids = [...A.keys()].filter((c) => parentOf(c) === x);
    if (kids.length === 0) return null;
    // the children of b, by name, under every region of x's level in its parent's scope
    const pool = new Map<string, string[]>();
    for (const p of candidatesUnder(parentScope(parentOf(x)), level)) {
      for (const c of childrenInB.get(p) ?? []) {
        pushTo(pool, must(keyB.get(c), `name of ${c}`), c);
      }
    }
    const tally = new Map<string, number>();
    for (const k of kids) {
      const found = pool.get(must(keyA.get(k), `name of ${k}`)) ?? [];
      if (found.length === 1) {
        const p = must(parentOf(found[0]), `parent of ${found[0]}`);
        tally.set(p, (tally.get(p) ?? 0) + 1);
      }
    }
    const total = [...tally.values()].reduce((s, n) => s + n, 0);
    // Fewer than half its children recognised says too little about where the region went.
    if (total * 2 < kids.length) return null;
    const parts = [...tally].filter(([, n]) => n / total >= 0.1).sort((a, b) => b[1] - a[1] || byCode(a[0], b[0]));
    const kept = parts.reduce((s, [, n]) => s + n, 0);
    const basis: Basis = parts.length === 1 ? "children" : "split";
    return parts.map(([to, n]) => ({ to, basis, confidence: round2((0.9 * n) / kept) }));
  }
}

// ---------------------------------------------------------------- all editions

export function buildHistory(editions: Map<EditionId, Map<string, string>>, curated: CuratedRow[]): History {
  const lists = EDITIONS.map((e) => must(editions.get(e.id), `edition ${e.id}`));
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
  for (const r of codes.values()) r.current = (r.mask & (1 << CURRENT)) !== 0;

  const steps: Map<string, Link[]>[] = [];
  const parts: Map<string, Map<string, Basis>>[] = [];
  const keys = lists.map(nameKeysOf);
  for (let i = 0; i < CURRENT; i++) {
    const t = resolveTransition(
      lists[i],
      lists[i + 1],
      curated.filter((c) => c.edition === EDITIONS[i + 1].id),
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
    while (i < CURRENT && lists[i + 1].has(code)) i++;
    if (i === CURRENT) return [{ code, steps: [] }];
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
      pushTo(predecessors, x.code, { code: r.code, basis: x.basis, confidence: x.confidence, lastEdition: EDITIONS[last].id });
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

  return { codes, steps, events, successors, predecessors, within, report: buildReport(codes, lists, successors, events, deadEnds) };
}

/** The events between consecutive editions, from the steps (which code went where) and the names. */
function changeEvents(
  lists: Map<string, string>[],
  keys: Map<string, string>[],
  steps: Map<string, Link[]>[],
  parts: Map<string, Map<string, Basis>>[],
): ChangeEvent[] {
  const events: ChangeEvent[] = [];
  for (let i = 0; i < CURRENT; i++) {
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
  codes: Map<string, CodeRecord>,
  lists: Map<string, string>[],
  successors: Map<string, Successor[]>,
  events: ChangeEvent[],
  deadEnds: Map<string, "some" | "all">,
): Report {
  const editions = EDITIONS.map((e, i) => {
    const counts: [number, number, number, number] = [0, 0, 0, 0];
    for (const code of lists[i].keys()) counts[levelOfCode(code) - 1]++;
    return { id: e.id, counts, total: lists[i].size };
  });
  const rows = new Map<string, ReportRow>();
  const byBasis: Record<string, number> = {};
  for (const [code, s] of successors) {
    const r = must(codes.get(code), code);
    const edition = EDITIONS[31 - Math.clz32(r.mask)].id;
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
    rows: [...rows.values()].sort((a, b) => a.level - b.level || (EDITION_INDEX.get(a.edition) ?? 0) - (EDITION_INDEX.get(b.edition) ?? 0)),
    byBasis: Object.fromEntries(Object.entries(byBasis).sort(([a], [b]) => byCode(a, b))),
    transitions: EDITIONS.slice(1).map((e, i) => ({
      from: EDITIONS[i].id,
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
export const needsNoHistoryRow = (r: CodeRecord, currentName: string | undefined) =>
  r.mask === ALL_EDITIONS_MASK && r.names.length === 1 && r.names[0].name === (currentName ?? r.names[0].name);

export function historyRows(h: History, currentNames?: Map<string, string>): HistoryRows {
  const history: HistoryRows["history"] = [];
  for (const r of [...h.codes.values()].sort((a, b) => byCode(a.code, b.code))) {
    const currentName = currentNames?.get(r.code);
    // a current code the region tables lack could answer /history from nowhere
    if (r.current && currentNames && currentName === undefined) throw new Error(`${r.code} is in edition 2025 but not among the current names`);
    if (r.current && needsNoHistoryRow(r, currentName)) continue;
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
      regulation: EDITIONS[i].regulation,
      provinsi: e.counts[0],
      kabupaten: e.counts[1],
      kecamatan: e.counts[2],
      kelurahan: e.counts[3],
      isCurrent: i === CURRENT ? 1 : 0,
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
  historyRow: { editions: number; names: string } | undefined,
  regionName: string | undefined,
): { edition: EditionId; name: string }[] | null {
  if (historyRow) {
    const names = JSON.parse(historyRow.names) as [number, string][];
    return EDITIONS.flatMap((e, i) => {
      const n = names.find(([m]) => m & (1 << i));
      return n ? [{ edition: e.id, name: n[1] }] : [];
    });
  }
  if (regionName === undefined) return null;
  return EDITIONS.map((e) => ({ edition: e.id, name: regionName }));
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

// ---------------------------------------------------------------- CLI

/** The region tables' names (idn-area-data 4.0.1's CSVs), for `historyRows`. */
export function readCurrentNames(): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of ["provinces", "regencies", "districts", "villages"]) {
    const lines = readFileSync(join(ROOT, "node_modules", "idn-area-data", "data", `${f}.csv`), "utf8").split(/\r?\n/);
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
  const h = buildHistory(readEditions(), readCurated());
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
