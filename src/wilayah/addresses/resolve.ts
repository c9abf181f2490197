/**
 * Which region an address names, from its phrases and the regions they name (docs/address-method.md,
 * "Scoring" and "The answer"). Pure: the lookup's rows are handed in (queries.ts), so the Worker and
 * the quality test run the same rules.
 *
 * Candidates: every region a phrase names exactly (any level, any spelling the index holds), every
 * region a written code stands for today (its own, or a code of an earlier edition's successors),
 * every village of the written postal code, and the villages of an area fetched in a second round. A
 * candidate explains the text through its chain (itself and its parents): its score is the best
 * cover of the segments' words by non-overlapping matches of chain members (dynamic programming over
 * word positions and the set of levels used), plus each used level's weight once, plus the postal
 * code's evidence. When the best exact cover leaves words unexplained, the best villages are also
 * compared against the words as written (edit distance to their chain's names, no lookup): typos the
 * vocabulary could not correct.
 *
 * Confidence: the answer's share of a softmax over the scores of every rival explanation (the
 * answer's own parents are no rivals) and a fixed score for "none of these".
 */
import { LEVELS, type Level } from "../codes";
import type { ReadingKind } from "../names/readings";
import { chainOf, cover, exactMatch, LEVEL_BIT, localMatches, type Match, type RegionHit, typoSpans, type Via, W } from "./matching";
import type { ParsedAddress } from "./parse";
import { MAX_SEGMENT_WORDS, type Phrase } from "./phrases";

export type { RegionHit } from "./matching";

/** What a written region code stands for today: the region itself, or (`former`) a successor of a code of an earlier edition (`several`: one of the regions it was split into). */
export type CodeTarget = { hit: RegionHit; former: boolean; several: boolean };

/** The lookup's answer: regions by exact term (`former`: the term is a name of an earlier edition only), villages by postal code, the current regions of written codes (by dotted code). */
export type Lookup = {
  byTerm: Map<string, { hit: RegionHit; former: boolean }[]>;
  byPostal: Map<string, RegionHit[]>;
  byCode: Map<string, CodeTarget[]>;
  /** Written codes (dotted) that no edition since 2015 holds. */
  unknownCodes: Set<string>;
};

const UNEXPLAINED_MAX = 4;

export const WARNINGS = [
  "postal_code_mismatch",
  "ambiguous",
  "typo_corrected",
  "former_name",
  "former_code",
  "unknown_code",
  "kabupaten_inconsistent",
  "kecamatan_inconsistent",
] as const;
export type Warning = (typeof WARNINGS)[number];

type Candidate = {
  hit: RegionHit;
  score: number;
  used: Match[];
  postal: "match" | "near" | "mismatch" | null;
  kabInconsistent: boolean;
  kecInconsistent: boolean;
};

export type Matched = { level: Level; id: string; text: string; read: string; via: Via | "postal_code"; reading: ReadingKind | null };

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
  /** The area whose villages a second round should compare (see `areaToExpand`). */
  expand: string | null;
};

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
});

/**
 * Scores every candidate (see the header) and answers the best, with its confidence, up to three
 * other villages, its warnings and what matched which level. `extra`: villages of a second round
 * (the area `expand` named), compared against the words as written.
 */
export function resolve(parsed: ParsedAddress, phrases: Phrase[], found: Lookup, extra: RegionHit[] = []): Resolution {
  const byRegion = new Map<string, Match[]>();
  const hits = new Map<string, RegionHit>();
  for (const p of phrases) {
    for (const { hit, former } of found.byTerm.get(p.phrase) ?? []) {
      const m = exactMatch(p, hit, former);
      const list = byRegion.get(hit.id);
      if (list) list.push(m);
      else byRegion.set(hit.id, [m]);
      hits.set(hit.id, hit);
    }
  }
  const postal = parsed.components.postal_code;
  const postalVillages = postal ? (found.byPostal.get(postal) ?? []) : [];
  const postalIds = new Set(postalVillages.map((v) => v.id));
  const postalKecs = new Set(postalVillages.map((v) => v.id.slice(0, 8)));
  const localOnly = new Map<string, RegionHit>();
  for (const v of [...postalVillages, ...extra]) if (!hits.has(v.id)) localOnly.set(v.id, v);

  const namesUpper = (phrase: string) => (found.byTerm.get(phrase) ?? []).some((x) => x.hit.level === "kabupaten" || x.hit.level === "provinsi");
  // Each written code that names a region (of any edition) is a segment of one word after the
  // text's, matched by the regions it stands for today; a code no edition holds is no evidence.
  const codes = parsed.codes.filter((c) => found.byCode.has(c.id));
  const codeSeg = parsed.regions.length;
  codes.forEach((c, k) => {
    for (const { hit, former, several } of found.byCode.get(c.id) ?? []) {
      const value = W.code - (former ? W.formerCode : 0) - (several ? W.split : 0);
      const m: Match = {
        seg: codeSeg + k,
        from: 0,
        to: 1,
        phrase: c.id,
        id: hit.id,
        level: hit.level,
        value,
        via: former ? "former_code" : "code",
        reading: null,
        kindMismatch: false,
      };
      const list = byRegion.get(hit.id);
      if (list) list.push(m);
      else byRegion.set(hit.id, [m]);
      hits.set(hit.id, hit);
    }
  });
  const segLengths = [...parsed.regions.map((s) => Math.min(s.words.length, MAX_SEGMENT_WORDS)), ...codes.map(() => 1)];
  const wordCount = segLengths.reduce((a, b) => a + b, 0);
  const kabSegs = parsed.regions.flatMap((s, i) => (s.level === "kabupaten" ? [i] : []));
  // Segments marked as a kecamatan that name some kecamatan: one the answer's chain does not explain
  // is another kecamatan than the answer's. (A segment that names none is unknown, not inconsistent:
  // a typo nothing corrected, or a name the parser cut at a level word, `Kec. Samarinda Kota`.)
  const namesKecamatan = new Set(phrases.filter((p) => (found.byTerm.get(p.phrase) ?? []).some((x) => x.hit.level === "kecamatan")).map((p) => p.seg));
  const kecSegs = parsed.regions.flatMap((s, i) => (s.level === "kecamatan" && namesKecamatan.has(i) ? [i] : []));

  const score = (hit: RegionHit, local: Match[]): Candidate | null => {
    const matches = [...chainOf(hit.id).flatMap((id) => byRegion.get(id) ?? []), ...local];
    const c = cover(segLengths, matches, LEVEL_BIT[hit.level]);
    if (!c) return null;
    let total = c.value;
    // A village or kecamatan named only by a phrase that also names a kabupaten/kota or provinsi, with
    // none of its parents written (`Gedung Sate, Bandung`): the writer means the city, not one of the
    // villages or kecamatan that bear its name elsewhere.
    if ((hit.level === "kelurahan" || hit.level === "kecamatan") && c.used.every((m) => m.level === hit.level) && c.used.some((m) => namesUpper(m.phrase)))
      total -= W.cityName;
    let postalState: Candidate["postal"] = null;
    if (postal) {
      if (hit.level === "kelurahan") postalState = postalIds.has(hit.id) ? "match" : postalKecs.has(hit.id.slice(0, 8)) ? "near" : "mismatch";
      else postalState = postalVillages.some((v) => v.id.startsWith(`${hit.id}.`)) ? "near" : "mismatch";
      total += postalState === "match" ? W.postalMatch : postalState === "near" ? W.postalNear : -W.postalMismatch;
    }
    // A kabupaten the text names with its level word that this chain does not explain, or not of its kind.
    const kabInconsistent = kabSegs.some((i) => !c.used.some((m) => m.seg === i)) || c.used.some((m) => m.kindMismatch);
    // A kecamatan the text names with its level word that this village's or kecamatan's chain does not explain.
    const kecInconsistent = (hit.level === "kelurahan" || hit.level === "kecamatan") && kecSegs.some((i) => !c.used.some((m) => m.seg === i));
    return { hit, score: total, used: c.used, postal: postalState, kabInconsistent, kecInconsistent };
  };

  const scored = new Map<string, Candidate>();
  for (const hit of hits.values()) {
    const c = score(hit, []);
    if (c) scored.set(hit.id, c);
  }
  // Typos the vocabulary could not correct, only when the best exact reading leaves words
  // unexplained: the best villages, those of the postal code and of the second round, compared
  // against their chain's names.
  const first = [...scored.values()].reduce<Candidate | null>((a, c) => (!a || c.score > a.score ? c : a), null);
  const explained = first ? first.used.reduce((a, m) => a + m.to - m.from, 0) : 0;
  if (explained < wordCount) {
    const villages = [...scored.values()].filter((c) => c.hit.level === "kelurahan").sort((a, b) => b.score - a.score);
    const again = [...villages.slice(0, W.localTop).map((c) => c.hit), ...localOnly.values()];
    // Only spans holding a word the best exact reading leaves unexplained: a typo is there.
    const explainedAt = new Set((first?.used ?? []).flatMap((m) => Array.from({ length: m.to - m.from }, (_, k) => `${m.seg}|${m.from + k}`)));
    const spans = typoSpans(phrases.filter((p) => Array.from({ length: p.to - p.from }, (_, k) => `${p.seg}|${p.from + k}`).some((w) => !explainedAt.has(w))));
    const memo = new Map<string, Match[]>();
    for (const hit of again) {
      const local = localMatches(hit, spans, memo);
      if (!local.length) continue;
      const c = score(hit, local);
      if (c && c.score > (scored.get(hit.id)?.score ?? Number.NEGATIVE_INFINITY)) scored.set(hit.id, c);
    }
  }

  const ranked = [...scored.values()].sort(
    (a, b) => b.score - a.score || LEVELS.indexOf(b.hit.level) - LEVELS.indexOf(a.hit.level) || (a.hit.id < b.hit.id ? -1 : 1),
  );
  const top = ranked[0];
  if (!top) return NOTHING(wordCount);
  // Rival explanations: not the answer's own parents (a weaker reading of the same place).
  const topChain = new Set(chainOf(top.hit.id));
  const rivals = ranked.slice(1).filter((c) => !topChain.has(c.hit.id));
  const exp = (x: number) => Math.exp(x - top.score);
  const unexplained = wordCount - top.used.reduce((a, m) => a + m.to - m.from, 0);
  const none = W.none + W.unexplained * Math.min(unexplained, UNEXPLAINED_MAX);
  const total = 1 + rivals.reduce((a, c) => a + exp(c.score), 0) + exp(none);
  const alternatives = rivals
    .filter((c) => c.hit.level === "kelurahan")
    .slice(0, 3)
    .map((c) => ({ hit: c.hit, confidence: exp(c.score) / total }))
    .filter((a) => a.confidence >= 0.01);

  const warnings: Warning[] = [];
  if (top.postal === "mismatch" || top.postal === "near") warnings.push("postal_code_mismatch");
  if (rivals[0] && top.score - rivals[0].score < W.ambiguousWithin) warnings.push("ambiguous");
  if (top.used.some((m) => m.via === "typo")) warnings.push("typo_corrected");
  if (top.used.some((m) => m.via === "former_name")) warnings.push("former_name");
  if (top.used.some((m) => m.via === "former_code")) warnings.push("former_code");
  if (parsed.codes.some((c) => c.id.length === 13 && found.unknownCodes.has(c.id))) warnings.push("unknown_code");
  if (top.kabInconsistent) warnings.push("kabupaten_inconsistent");
  if (top.kecInconsistent) warnings.push("kecamatan_inconsistent");

  const matched: Matched[] = [];
  for (const m of top.used) {
    // One entry per level for the words, one for a written code (both when both name it).
    const isCode = (v: Matched["via"]) => v === "code" || v === "former_code";
    if (matched.some((x) => x.level === m.level && isCode(x.via) === isCode(m.via))) continue;
    const seg = parsed.regions[m.seg];
    const text = seg ? seg.text.slice(seg.at[m.from][0], seg.at[m.to - 1][1]) : codes[m.seg - codeSeg].text;
    matched.push({ level: m.level, id: m.id, text, read: m.phrase, via: m.via, reading: m.reading });
  }
  if (top.postal === "match" && postal) matched.push({ level: "kelurahan", id: top.hit.id, text: postal, read: postal, via: "postal_code", reading: null });
  matched.sort((a, b) => LEVELS.indexOf(b.level) - LEVELS.indexOf(a.level));

  const own = top.used.find((m) => m.id === top.hit.id && m.level === "kelurahan");
  const ownSeg = own ? parsed.regions[own.seg] : undefined;
  const villageFromHamlet = ownSeg?.marker === "kampung" || ownSeg?.marker === "dusun";
  return {
    top: top.hit,
    confidence: 1 / total,
    alternatives,
    warnings,
    matched,
    unexplained,
    villageFromHamlet,
    expand: areaToExpand(parsed, top, unexplained),
  };
}

/**
 * Whether a second round should fetch an area's villages: the answer is a kecamatan or kabupaten
 * with words left unexplained (a village name the vocabulary could not correct), or a village with a
 * whole village-like segment unexplained (then its kecamatan's villages).
 */
function areaToExpand(parsed: ParsedAddress, top: Candidate, unexplained: number): string | null {
  if (top.hit.level === "provinsi" || unexplained === 0) return null;
  if (top.hit.level !== "kelurahan") return top.hit.id;
  const silent = parsed.regions.some((s, i) => (s.level === null || s.level === "kelurahan") && !top.used.some((m) => m.seg === i));
  return silent ? top.hit.id.slice(0, 8) : null;
}
