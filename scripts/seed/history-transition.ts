/** The region history's model and one transition between consecutive editions (moved from history.ts). */
import { LEVELS, parentAt } from "../../src/wilayah/codes.ts";
import {
  type Basis,
  type Change,
  type CuratedRow,
  type EditionId,
  type Editions,
  type LevelNo,
  lastSegment,
  level4,
  levelOfCode,
  parentOf,
  sameSuffix,
} from "./history-editions.ts";
import { nameKeysOf, PART_MIN, PART_MIN_LENGTH, partDistance, SIMILAR_MARGIN, SIMILAR_MIN, similarity } from "./history-names.ts";

// ---------------------------------------------------------------- model

export type CodeRecord = {
  code: string;
  level: LevelNo;
  /** Bit i set: the code is in editions[i]. */
  mask: number;
  /** The code's names in edition order, one entry per distinct spelling with the editions that use it. */
  names: { mask: number; name: string }[];
  current: boolean;
};

export type Link = { to: string; basis: Basis; confidence: number };

export type ChangeEvent = {
  /** Index into the editions of the edition the change first shows in (1 and later). */
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
  /** The editions it was built from, oldest first; the last is current. */
  editions: Editions;
  codes: Map<string, CodeRecord>;
  /** Per transition i (editions[i] -> editions[i+1]): each retired code's successors in editions[i+1]. */
  steps: Map<string, Link[]>[];
  events: ChangeEvent[];
  successors: Map<string, Successor[]>;
  predecessors: Map<string, Predecessor[]>;
  /** For every non-current code: the deepest current region known to hold all of it (null: none known). */
  within: Map<string, string | null>;
  report: Report;
};

export const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A value the derivation knows is there (a code's name in its own edition, a resolved parent): a broken invariant throws, naming it. */
export function must<T>(v: T | null | undefined, what: string): T {
  if (v === null || v === undefined) throw new Error(`history: ${what} is missing`);
  return v;
}
/** Appends to the list kept under `key`. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
export const round2 = (x: number) => Math.round(x * 100) / 100;

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
    const area = parentScope(parentAt(code, LEVELS[areaLevel - 1]));
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
