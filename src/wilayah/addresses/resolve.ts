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
import { nearContextName } from "../edits";
import type { ReadingKind } from "../names/readings";
import { chainOf, cover, exactMatch, LEVEL_BIT, localMatches, type Match, type RegionHit, typoSpans, type Via, W } from "./matching";
import type { ParsedAddress, RegionSegment, WrittenCode } from "./parse";
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
  "kecamatan_former",
  "kecamatan_unknown",
] as const;
export type Warning = (typeof WARNINGS)[number];

export type Candidate = {
  hit: RegionHit;
  score: number;
  used: Match[];
  postal: "match" | "near" | "mismatch" | null;
  kabInconsistent: boolean;
  kecInconsistent: boolean;
};

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

// ---------------------------------------------------------------- what the text names

/** The kecamatan a `Kec.` label names (labelledKecamatan). */
type Labelled = { ids: Set<string>; unmatched: boolean; partial: boolean; fuzzy?: { seg: number; length: number; d: number; phrase: string } };

/** The postal code written and its villages (with their kecamatan). */
type Postal = { code: string | null; villages: RegionHit[]; ids: Set<string>; kecs: Set<string> };

/** What every step reads: the text, its phrases, what the lookup found, the areas the text names, its postal code, the second round's regions. */
type Evidence = { parsed: ParsedAddress; phrases: Phrase[]; found: Lookup; scope: string[]; labelled: Labelled; postal: Postal; extra: RegionHit[] };

export function evidenceOf(parsed: ParsedAddress, phrases: Phrase[], found: Lookup, extra: RegionHit[]): Evidence {
  const scope = namedScope(parsed, phrases, found);
  const labelled = labelledKecamatan(parsed, phrases, found, scope, extra);
  const code = parsed.components.postal_code;
  const villages = code ? (found.byPostal.get(code) ?? []) : [];
  const postal = { code, villages, ids: new Set(villages.map((v) => v.id)), kecs: new Set(villages.map((v) => v.id.slice(0, 8))) };
  return { parsed, phrases, found, scope, labelled, postal, extra };
}

/** Whether `id` lies in `area` or is one of its parents (the area itself included). */
const related = (id: string, area: string) => id === area || id.startsWith(`${area}.`) || area.startsWith(`${id}.`);

/** Whether `id` is related to one of `areas`; no areas bind nothing (no scope named, no kecamatan labelled). */
export const within = (id: string, areas: Iterable<string>) => {
  const list = [...areas];
  return list.length === 0 || list.some((a) => related(id, a));
};

/**
 * The provinsi or kabupaten/kota the text names unambiguously (docs/address-method.md, "Named
 * regions"): a segment marked `Kab.`, `Kota`, `Prov.`... read whole as exactly one region of that
 * level, or an unmarked segment after the last kecamatan/village label read whole as exactly one
 * provinsi (`..., Jawa Tengah`); Kota and Kabupaten Bekasi both when it reads as either (people
 * write one for the other: the answer then warns kabupaten_inconsistent). The deepest
 * of them is the scope every answer must lie in; one that contradicts it is left out (the kabupaten,
 * the more specific, wins).
 */
function namedScope(parsed: ParsedAddress, phrases: Phrase[], found: Lookup): string[] {
  const lastLower = parsed.regions.reduce((a, s, i) => (s.level === "kelurahan" || s.level === "kecamatan" ? i : a), -1);
  const named: string[][] = [];
  parsed.regions.forEach((s, seg) => {
    const upper = s.level === "kabupaten" || s.level === "provinsi";
    if (!upper && (s.marker !== null || seg <= lastLower)) return;
    const length = Math.min(s.words.length, MAX_SEGMENT_WORDS);
    const level: Level = s.level === "kabupaten" ? "kabupaten" : "provinsi";
    const ids = new Set<string>();
    for (const p of phrases) {
      if (p.seg !== seg || p.from !== 0 || p.to !== length) continue;
      for (const { hit } of found.byTerm.get(p.phrase) ?? []) if (hit.level === level) ids.add(hit.id);
    }
    // Kota X and Kabupaten X (people write one for the other) are both allowed; names shared across provinces are no scope.
    const list = [...ids];
    if (list.length === 1 || (list.length === 2 && list[0].slice(0, 2) === list[1].slice(0, 2))) named.push(list);
  });
  if (named.length === 0) return [];
  // The deepest named areas, inside the provinsi named where they can be (a province that
  // contradicts the kabupaten is left out); of two kabupaten that contradict each other, the one
  // the province holds, else the last written (`Jl. Raya Kota Batu, ..., Kab. Ogan Komering Ulu
  // Selatan`: addresses run from the street to the province).
  const depth = Math.max(...named.map((areas) => areas[0].length));
  const deepest = named.filter((areas) => areas[0].length === depth);
  const upper = named.filter((areas) => areas[0].length < depth);
  const fits = (areas: string[]) => upper.every((p) => areas.some((id) => p.some((a) => related(id, a))));
  return [...deepest].reverse().find(fits) ?? (deepest.at(-1) as string[]);
}

/**
 * The kecamatan a segment labelled `Kec.` names inside the scope: those read by its longest phrase
 * naming some (`Kec. Kota Padang Utara`: Padang Utara), several when the name is borne by several
 * and nothing else tells them apart. Empty when no labelled segment names one there (then a second
 * round compares the scope's kecamatan with the words as written).
 */
function labelledKecamatan(parsed: ParsedAddress, phrases: Phrase[], found: Lookup, scope: string[], extra: RegionHit[]): Labelled {
  let best: { words: number; ids: Set<string>; whole: boolean } = { words: 0, ids: new Set(), whole: false };
  let labelled = false;
  parsed.regions.forEach((s, seg) => {
    if (s.level !== "kecamatan") return;
    labelled = true;
    const length = Math.min(s.words.length, MAX_SEGMENT_WORDS);
    for (const p of phrases) {
      if (p.seg !== seg) continue;
      for (const { hit } of found.byTerm.get(p.phrase) ?? []) {
        if (hit.level !== "kecamatan" || !within(hit.id, scope)) continue;
        const words = p.to - p.from - p.corrections.length * 0.5;
        const whole = p.from === 0 && p.to === length && !p.corrections.length;
        if (words > best.words) best = { words, ids: new Set([hit.id]), whole };
        else if (words === best.words) {
          best.ids.add(hit.id);
          best.whole ||= whole;
        }
      }
    }
  });
  // Named by a part of the segment only (`Kec. Telaga Jaya` naming Telaga): a kecamatan whose whole
  // name is the segment with a letter or two off (Talaga Jaya) is the likelier, when the second round has one.
  const partial = labelled && best.ids.size > 0 && !best.whole;
  if (!labelled || (best.ids.size && !partial) || !extra.length) return { ids: best.ids, unmatched: labelled && best.ids.size === 0, partial };
  // None named exactly, or only by a part: the kecamatan of the second round's area nearest to a
  // labelled segment as written, within one edit per 8 letters (at least 1; `Sinembah Tnjng Muda Hulu`).
  let nearest = { d: Number.POSITIVE_INFINITY, ids: new Set<string>(), seg: -1, length: 0, phrase: "" };
  const kecs = extra.filter((h) => h.level === "kecamatan");
  parsed.regions.forEach((s, seg) => {
    if (s.level !== "kecamatan") return;
    const length = Math.min(s.words.length, MAX_SEGMENT_WORDS);
    const written = phrases.filter((p) => p.seg === seg && p.from === 0 && p.to === length && !p.corrections.length && !p.only).map((p) => p.phrase);
    for (const k of kecs) {
      for (const w of written) {
        const near = w.length >= 3 ? nearContextName(w, [k.name, k.altName]) : null;
        if (!near || near.d > nearest.d) continue;
        if (near.d < nearest.d) nearest = { d: near.d, ids: new Set(), seg, length, phrase: near.name };
        nearest.ids.add(k.id);
      }
    }
  });
  if (nearest.ids.size === 0) return { ids: best.ids, unmatched: best.ids.size === 0, partial };
  return { ids: nearest.ids, unmatched: false, partial: false, fuzzy: { seg: nearest.seg, length: nearest.length, d: nearest.d, phrase: nearest.phrase } };
}

// ---------------------------------------------------------------- candidates

/** The regions the text may mean, each with the matches that name it, in the order found. */
type Candidates = {
  hits: Map<string, RegionHit>;
  byRegion: Map<string, Match[]>;
  /** Villages of the postal code and regions of the second round that no name matched: compared against the words as written only. */
  localOnly: Map<string, RegionHit>;
  /** The written codes that name a region: code k is segment `regions.length + k`, of one word. */
  codes: WrittenCode[];
};

/**
 * Every region a phrase names, a labelled kecamatan the second round found by comparison, and
 * every region a written code stands for today (a code no edition holds is no evidence).
 */
export function candidates(e: Evidence): Candidates {
  const { parsed, found } = e;
  const c: Candidates = { hits: new Map(), byRegion: new Map(), localOnly: new Map(), codes: [] };
  for (const p of e.phrases) {
    for (const { hit, former } of found.byTerm.get(p.phrase) ?? []) {
      if (p.only && hit.level !== p.only) continue;
      addMatch(c, hit, exactMatch(p, hit, former));
    }
  }
  for (const [hit, m] of labelledByComparison(e.labelled, e.extra)) addMatch(c, hit, m);
  // Before the codes' regions are in: a village a code names is still compared against the words
  // as written when the postal code or the second round holds it.
  for (const v of [...e.postal.villages, ...e.extra]) if (!c.hits.has(v.id)) c.localOnly.set(v.id, v);
  c.codes = parsed.codes.filter((code) => found.byCode.has(code.id));
  c.codes.forEach((code, k) => {
    for (const target of found.byCode.get(code.id) ?? []) addMatch(c, target.hit, codeMatch(code, target, parsed.regions.length + k));
  });
  return c;
}

/** Files a match under the region it names; `hits` keeps each region once, in the order found. */
function addMatch(c: Candidates, hit: RegionHit, m: Match): void {
  const list = c.byRegion.get(hit.id);
  if (list) list.push(m);
  else c.byRegion.set(hit.id, [m]);
  c.hits.set(hit.id, hit);
}

/** A labelled kecamatan found only by comparison (second round): matched as a corrected typo. */
function labelledByComparison(labelled: Labelled, extra: RegionHit[]): [RegionHit, Match][] {
  if (!labelled.fuzzy) return [];
  const { seg, length, d, phrase } = labelled.fuzzy;
  const out: [RegionHit, Match][] = [];
  for (const id of labelled.ids) {
    const hit = extra.find((h) => h.id === id);
    if (!hit) continue;
    const value = W.word * length - W.correction * d;
    out.push([hit, { seg, from: 0, to: length, phrase, id, level: "kecamatan", value, via: "typo", reading: null, kindMismatch: false }]);
  }
  return out;
}

/** A written code read as a segment of one word, matched by a region it stands for today. */
function codeMatch(code: WrittenCode, { hit, former, several }: CodeTarget, seg: number): Match {
  const value = W.code - (former ? W.formerCode : 0) - (several ? W.split : 0);
  return {
    seg,
    from: 0,
    to: 1,
    phrase: code.id,
    id: hit.id,
    level: hit.level,
    value,
    via: former ? "former_code" : "code",
    reading: null,
    kindMismatch: false,
  };
}

// ---------------------------------------------------------------- cover

/** What every candidate's cover is laid on: the segments' lengths (the text's, then the codes'), and the segments a chain should explain. */
type Frame = {
  byRegion: Map<string, Match[]>;
  segLengths: number[];
  wordCount: number;
  /** Segments marked as a kabupaten. */
  kabSegs: number[];
  /** Segments marked as a kecamatan that name some kecamatan. */
  kecSegs: number[];
};

export function frameOf(e: Evidence, cands: Candidates): Frame {
  const { parsed, phrases, found } = e;
  const segLengths = [...parsed.regions.map((s) => Math.min(s.words.length, MAX_SEGMENT_WORDS)), ...cands.codes.map(() => 1)];
  // A segment marked as a kecamatan that names some kecamatan, unexplained by the answer's chain, is
  // another kecamatan than the answer's. (A segment that names none is unknown, not inconsistent:
  // a typo nothing corrected, or a name the parser cut at a level word, `Kec. Samarinda Kota`.)
  const namesKecamatan = new Set(phrases.filter((p) => (found.byTerm.get(p.phrase) ?? []).some((x) => x.hit.level === "kecamatan")).map((p) => p.seg));
  return {
    byRegion: cands.byRegion,
    segLengths,
    wordCount: segLengths.reduce((a, b) => a + b, 0),
    kabSegs: parsed.regions.flatMap((s, i) => (s.level === "kabupaten" ? [i] : [])),
    kecSegs: parsed.regions.flatMap((s, i) => (s.level === "kecamatan" && namesKecamatan.has(i) ? [i] : [])),
  };
}

/** Whether a cover explains some words of segment `seg`. */
const usesSegment = (used: Match[], seg: number) => used.some((m) => m.seg === seg);
const explainedWords = (used: Match[]) => used.reduce((a, m) => a + m.to - m.from, 0);

/** Every candidate in the named scope scored by its best cover; then, where words are left, by comparison with the words as written. */
export function scoreCandidates(e: Evidence, cands: Candidates, frame: Frame): Map<string, Candidate> {
  const scored = new Map<string, Candidate>();
  for (const hit of cands.hits.values()) {
    if (!within(hit.id, e.scope)) continue;
    const c = score(e, frame, hit, []);
    if (c) scored.set(hit.id, c);
  }
  compareAsWritten(e, cands, frame, scored);
  return scored;
}

/** A candidate's best cover by its chain's matches (and `local` ones), weighed with the postal code and what the text names. */
function score(e: Evidence, frame: Frame, hit: RegionHit, local: Match[]): Candidate | null {
  const matches = [...chainOf(hit.id).flatMap((id) => frame.byRegion.get(id) ?? []), ...local];
  const c = cover(frame.segLengths, matches, LEVEL_BIT[hit.level]);
  if (!c) return null;
  let total = c.value;
  if (namedAsCity(e.found, hit, c.used)) total -= W.cityName;
  const postal = postalFit(e.postal, hit);
  if (postal) total += postal === "match" ? W.postalMatch : postal === "near" ? W.postalNear : -W.postalMismatch;
  // A kabupaten the text names with its level word that this chain does not explain, or not of its kind.
  const kabInconsistent = frame.kabSegs.some((i) => !usesSegment(c.used, i)) || c.used.some((m) => m.kindMismatch);
  // A kecamatan the text names with its level word that this village's or kecamatan's chain does not explain.
  const kecInconsistent = (hit.level === "kelurahan" || hit.level === "kecamatan") && frame.kecSegs.some((i) => !usesSegment(c.used, i));
  return { hit, score: total, used: c.used, postal, kabInconsistent, kecInconsistent };
}

/**
 * A village or kecamatan named only by a phrase that also names a kabupaten/kota or provinsi, with
 * none of its parents written (`Gedung Sate, Bandung`): the writer means the city, not one of the
 * villages or kecamatan that bear its name elsewhere. So also when the words that name it name its
 * own kabupaten/kota too (the village Kota Lhokseumawe in Kota Lhokseumawe: `Kota Lhokseumawe, Aceh` is the city).
 */
function namedAsCity(found: Lookup, hit: RegionHit, used: Match[]): boolean {
  if (hit.level !== "kelurahan" && hit.level !== "kecamatan") return false;
  const upper = (phrase: string) => (found.byTerm.get(phrase) ?? []).filter((x) => x.hit.level === "kabupaten" || x.hit.level === "provinsi");
  if (used.every((m) => m.level === hit.level) && used.some((m) => upper(m.phrase).length > 0)) return true;
  return used.some((m) => m.id === hit.id && upper(m.phrase).some((x) => hit.id.startsWith(`${x.hit.id}.`)));
}

function postalFit(postal: Postal, hit: RegionHit): Candidate["postal"] {
  if (!postal.code) return null;
  if (hit.level === "kelurahan") return postal.ids.has(hit.id) ? "match" : postal.kecs.has(hit.id.slice(0, 8)) ? "near" : "mismatch";
  return postal.villages.some((v) => v.id.startsWith(`${hit.id}.`)) ? "near" : "mismatch";
}

/**
 * Typos the vocabulary could not correct, only when the best exact reading leaves words
 * unexplained: the best villages, those of the postal code and the regions of the second round,
 * compared against their chain's names.
 */
function compareAsWritten(e: Evidence, cands: Candidates, frame: Frame, scored: Map<string, Candidate>): void {
  const first = [...scored.values()].reduce<Candidate | null>((a, c) => (!a || c.score > a.score ? c : a), null);
  if ((first ? explainedWords(first.used) : 0) >= frame.wordCount) return;
  const villages = [...scored.values()].filter((c) => c.hit.level === "kelurahan").sort((a, b) => b.score - a.score);
  const again = [...villages.slice(0, W.localTop).map((c) => c.hit), ...[...cands.localOnly.values()].filter((h) => within(h.id, e.scope))];
  const spans = typoSpans(unexplainedPhrases(e.phrases, first?.used ?? []));
  const memo = new Map<string, Match[]>();
  for (const hit of again) {
    const local = localMatches(hit, spans, memo);
    if (!local.length) continue;
    const c = score(e, frame, hit, local);
    if (c && c.score > (scored.get(hit.id)?.score ?? Number.NEGATIVE_INFINITY)) scored.set(hit.id, c);
  }
}

/** Only spans holding a word the best exact reading leaves unexplained: a typo is there. */
function unexplainedPhrases(phrases: Phrase[], used: Match[]): Phrase[] {
  const wordsOf = (s: { seg: number; from: number; to: number }) => Array.from({ length: s.to - s.from }, (_, k) => `${s.seg}|${s.from + k}`);
  const explainedAt = new Set(used.flatMap(wordsOf));
  return phrases.filter((p) => wordsOf(p).some((w) => !explainedAt.has(w)));
}

// ---------------------------------------------------------------- rank

/** The answer among the candidates best first; `outside`: the text's best reading when the labelled kecamatan does not hold it. */
type Choice = { ranked: Candidate[]; top: Candidate; outside: Candidate | undefined; former: boolean };

/** Best first: by score, then the finer level, then the code, so the order candidates were found in never decides. */
const byRank = (a: Candidate, b: Candidate) => b.score - a.score || LEVELS.indexOf(b.hit.level) - LEVELS.indexOf(a.hit.level) || (a.hit.id < b.hit.id ? -1 : 1);

/**
 * The text's best reading, and the best inside the kecamatan its `Kec.` label names: a labelled
 * kecamatan binds the answer (a village of that name elsewhere is another place), unless the
 * village was in that kecamatan before a split moved it (`moved`: its earlier codes).
 */
export function rank(scored: Iterable<Candidate>, kecamatan: Set<string>, moved?: Map<string, string[]>): Choice | null {
  const ranked = [...scored].sort(byRank);
  const unbound = ranked[0];
  const outside = unbound && !within(unbound.hit.id, kecamatan) && unbound.hit.level !== "provinsi" && unbound.hit.level !== "kabupaten" ? unbound : undefined;
  const former = !!outside && movedFrom(outside, kecamatan, moved);
  const top = former ? outside : (ranked.find((c) => within(c.hit.id, kecamatan)) ?? unbound);
  return top ? { ranked, top, outside, former } : null;
}

const movedFrom = (c: Candidate, kecamatan: Set<string>, moved?: Map<string, string[]>) =>
  c.hit.level === "kelurahan" && (moved?.get(c.hit.id) ?? []).some((old) => [...kecamatan].some((k) => old.startsWith(`${k}.`)));

/** The answer's confidence, its rivals and the alternatives worth naming, the words it leaves unexplained. */
type Odds = { confidence: number; alternatives: Resolution["alternatives"]; rivals: Candidate[]; unexplained: number; skipped: boolean };

/** The answer's share of a softmax over its rivals' scores and a score for "none of these" (see the header). */
export function oddsOf(parsed: ParsedAddress, { ranked, top }: Choice, wordCount: number): Odds {
  // Rival explanations: not the answer's own parents (a weaker reading of the same place) nor the
  // regions inside it (a finer reading of it: the answer is right at its level either way).
  const topChain = new Set(chainOf(top.hit.id));
  const rivals = ranked.filter((c) => c !== top && !topChain.has(c.hit.id) && !c.hit.id.startsWith(`${top.hit.id}.`));
  const exp = (x: number) => Math.exp(x - top.score);
  const unexplained = wordCount - explainedWords(top.used);
  const skipped = skippedKecamatan(parsed, top);
  const none = W.none + W.unexplained * Math.min(unexplained, UNEXPLAINED_MAX) + (skipped ? W.kecamatanSkipped : 0);
  const total = 1 + rivals.reduce((a, c) => a + exp(c.score), 0) + exp(none);
  // Alternatives: other villages and kecamatan, best first; a
  // kecamatan that bears the answer's name elsewhere in the named province comes before villages
  // matched on a word of it.
  const alternatives = rivals
    .filter((c) => c.hit.level === "kelurahan" || c.hit.level === "kecamatan")
    .slice(0, 3)
    .map((c) => ({ hit: c.hit, confidence: exp(c.score) / total }))
    .filter((a) => a.confidence >= 0.01);
  return { confidence: 1 / total, alternatives, rivals, unexplained, skipped };
}

/**
 * A kecamatan the text labels (`Kec. X`) that the answer, a kabupaten or provinsi, does not reach:
 * the answer is sure of its own level only if that name is nothing at all, which is rarely so.
 */
function skippedKecamatan(parsed: ParsedAddress, top: Candidate): boolean {
  if (top.hit.level !== "kabupaten" && top.hit.level !== "provinsi") return false;
  return parsed.regions.some((s, i) => s.level === "kecamatan" && !usesSegment(top.used, i));
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
