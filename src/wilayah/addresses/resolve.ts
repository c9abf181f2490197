/**
 * Which region an address names, from its phrases and the regions they name (docs/address-method.md,
 * "Scoring" and "The answer"). Pure: the lookup's rows are handed in (queries.ts), so the Worker and
 * the quality test run the same rules. In three steps, a module each:
 *
 * - evidence.ts: what the text names before any candidate is scored (the provinsi or kabupaten/kota
 *   every answer must lie in, the kecamatan a `Kec.` label binds, the postal code's villages);
 * - score.ts: every region a phrase, a written code or the postal code names, each scored by the
 *   best cover of the words by its chain (matching.ts), typos compared without a lookup, ranked, and
 *   the answer's confidence: its share of a softmax over its rivals and "none of these";
 * - here: the answer, its warnings, what matched which level, and what the rounds after the first
 *   should fetch (the regions of an area, the earlier codes of a village).
 */
import { LEVELS, type Level } from "../codes";
import type { ReadingKind } from "../names/readings";
import { type Evidence, evidenceOf, type Lookup, related } from "./evidence";
import { type Match, type RegionHit, type Via, W } from "./matching";
import type { ParsedAddress, RegionSegment } from "./parse";
import type { Phrase } from "./phrases";
import { type Candidate, type Candidates, type Choice, candidates, frameOf, type Odds, oddsOf, rank, scoreCandidates, usesSegment } from "./score";

export type { CodeTarget, Lookup } from "./evidence";
export type { RegionHit } from "./matching";

export const WARNINGS = [
  "postal_code_mismatch",
  "ambiguous",
  "typo_corrected",
  "former_name",
  "former_code",
  "unknown_code",
  "kabupaten_inconsistent",
  "kecamatan_inconsistent",
  "kecamatan_former",
  "kecamatan_unknown",
] as const;
export type Warning = (typeof WARNINGS)[number];

export type Matched = { level: Level; id: string; text: string; read: string; via: Via | "postal_code" | "former_kecamatan"; reading: ReadingKind | null };

export type Resolution = {
  /** The best candidate; null when nothing in the text names a region. */
  top: RegionHit | null;
  confidence: number;
  alternatives: { hit: RegionHit; confidence: number }[];
  warnings: Warning[];
  matched: Matched[];
  /** Words of region segments the answer does not explain. */
  unexplained: number;
  /** A village named by a segment marked as a dusun/kampung (the `dusun` component was its name). */
  villageFromHamlet: boolean;
  /** The area whose regions a second round should compare (see `areaToExpand`). */
  expand: string | null;
  /**
   * A village of another kecamatan than the one the text labels (`Kec. X`), in the same kabupaten:
   * whether it was in that kecamatan in an earlier edition (a split moved it) is asked of the region
   * history in a third round, then the address is resolved again with `moved`.
   */
  movedCheck: string | null;
};

/** What the rounds after the first found: regions of an area (`expand`), earlier codes of villages (`movedCheck`). */
export type Rounds = { extra?: RegionHit[]; moved?: Map<string, string[]> };

// ---------------------------------------------------------------- resolve

const NOTHING = (words: number): Resolution => ({
  top: null,
  confidence: 0,
  alternatives: [],
  warnings: [],
  matched: [],
  unexplained: words,
  villageFromHamlet: false,
  expand: null,
  movedCheck: null,
});

/**
 * Scores every candidate (see the header) and answers the best, with its confidence, up to three
 * other candidates, its warnings and what matched which level. `rounds.extra`: regions of a second
 * round (the area `expand` named), compared against the words as written; `rounds.moved`: the
 * earlier codes of the village `movedCheck` named.
 */
export function resolve(parsed: ParsedAddress, phrases: Phrase[], found: Lookup, rounds: Rounds = {}): Resolution {
  const e = evidenceOf(parsed, phrases, found, rounds.extra ?? []);
  const cands = candidates(e);
  const frame = frameOf(e, cands);
  const choice = rank(scoreCandidates(e, cands, frame).values(), e.labelled.ids, rounds.moved);
  if (!choice) return NOTHING(frame.wordCount);
  const odds = oddsOf(parsed, choice, frame.wordCount);
  return {
    top: choice.top.hit,
    confidence: odds.confidence,
    alternatives: odds.alternatives,
    warnings: warningsOf(e, choice, odds),
    matched: matchedOf(e, cands, choice),
    unexplained: odds.unexplained,
    villageFromHamlet: villageFromHamlet(parsed, choice.top),
    expand: rounds.extra ? null : areaToExpand(parsed, choice.top, odds.unexplained, e.scope, e.labelled.unmatched || e.labelled.partial),
    movedCheck: rounds.moved ? null : movedCheck(choice.outside, e.labelled.ids),
  };
}

// ---------------------------------------------------------------- explain

export function warningsOf(e: Evidence, { top, outside, former }: Choice, odds: Odds): Warning[] {
  const warnings: Warning[] = [];
  if (top.postal === "mismatch" || top.postal === "near") warnings.push("postal_code_mismatch");
  if (odds.rivals[0] && top.score - odds.rivals[0].score < W.ambiguousWithin) warnings.push("ambiguous");
  if (top.used.some((m) => m.via === "typo")) warnings.push("typo_corrected");
  if (top.used.some((m) => m.via === "former_name")) warnings.push("former_name");
  if (top.used.some((m) => m.via === "former_code")) warnings.push("former_code");
  if (e.parsed.codes.some((c) => c.id.length === 13 && e.found.unknownCodes.has(c.id))) warnings.push("unknown_code");
  if (top.kabInconsistent) warnings.push("kabupaten_inconsistent");
  if (odds.skipped) warnings.push("kecamatan_unknown");
  if (former) warnings.push("kecamatan_former");
  else if (top.kecInconsistent || (outside && outside.hit.level === "kelurahan" && outside.score > top.score)) warnings.push("kecamatan_inconsistent");
  return warnings;
}

/** What matched which level, finest first, with the words as written. */
export function matchedOf(e: Evidence, cands: Candidates, { top, former }: Choice): Matched[] {
  const { parsed } = e;
  const matched: Matched[] = [];
  for (const m of top.used) {
    // One entry per level for the words, one for a written code (both when both name it).
    const isCode = (v: Matched["via"]) => v === "code" || v === "former_code";
    if (matched.some((x) => x.level === m.level && isCode(x.via) === isCode(m.via))) continue;
    const seg = parsed.regions[m.seg];
    const text = seg ? spelled(seg, m) : cands.codes[m.seg - parsed.regions.length].text;
    matched.push({ level: m.level, id: m.id, text, read: m.phrase, via: m.via, reading: m.reading });
  }
  const postal = e.postal.code;
  if (top.postal === "match" && postal) matched.push({ level: "kelurahan", id: top.hit.id, text: postal, read: postal, via: "postal_code", reading: null });
  const written = former ? formerKecamatan(e, cands) : null;
  if (written) matched.push(written);
  return matched.sort((a, b) => LEVELS.indexOf(b.level) - LEVELS.indexOf(a.level));
}

/** The words a match read, as written (with what `words` leaves out between them). */
const spelled = (seg: RegionSegment, m: Match) => seg.text.slice(seg.at[m.from][0], seg.at[m.to - 1][1]);

/** The kecamatan written, the village's before a split moved it: named, though not the answer's. */
function formerKecamatan({ parsed, labelled }: Evidence, cands: Candidates): Matched | null {
  const m = [...labelled.ids].flatMap((k) => cands.byRegion.get(k) ?? []).find((x) => parsed.regions[x.seg]?.level === "kecamatan");
  const seg = m && parsed.regions[m.seg];
  if (!m || !seg) return null;
  return { level: "kecamatan", id: m.id, text: spelled(seg, m), read: m.phrase, via: "former_kecamatan", reading: null };
}

/** A village named by a segment marked as a dusun/kampung: the `dusun` component was its name. */
function villageFromHamlet(parsed: ParsedAddress, top: Candidate): boolean {
  const own = top.used.find((m) => m.id === top.hit.id && m.level === "kelurahan");
  const ownSeg = own ? parsed.regions[own.seg] : undefined;
  return ownSeg?.marker === "kampung" || ownSeg?.marker === "dusun";
}

/** A village outside the labelled kecamatan but in its kabupaten: did a split move it? (asked of the region history, a third round) */
function movedCheck(outside: Candidate | undefined, kecamatan: Set<string>): string | null {
  return outside?.hit.level === "kelurahan" && [...kecamatan].some((k) => k.slice(0, 5) === outside.hit.id.slice(0, 5)) ? outside.hit.id : null;
}

/**
 * Whether a second round should fetch an area's regions: a `Kec.` label that names no kecamatan in
 * the named scope (a misspelling: the scope's kecamatan are compared with it); else the answer is a
 * kecamatan or kabupaten with words left unexplained (a village name the vocabulary could not
 * correct), or a village with a whole village-like segment unexplained (then its kecamatan's).
 */
function areaToExpand(parsed: ParsedAddress, top: Candidate, unexplained: number, scope: string[], kecUnmatched: boolean): string | null {
  if (kecUnmatched && scope.length) return scope.find((a) => related(top.hit.id, a)) ?? scope[0];
  if (unexplained === 0) return null;
  if (top.hit.level === "provinsi") return null;
  if (top.hit.level !== "kelurahan") return top.hit.id;
  const silent = parsed.regions.some((s, i) => (s.level === null || s.level === "kelurahan") && !usesSegment(top.used, i));
  return silent ? top.hit.id.slice(0, 8) : null;
}
