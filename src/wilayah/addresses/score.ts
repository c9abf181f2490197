/**
 * How each candidate explains the text (docs/address-method.md, "Scoring"; moved from resolve.ts):
 * the candidates (every region a phrase names, a labelled kecamatan found by comparison, the regions
 * written codes stand for), each one's best cover of the words by its chain (matching.ts) weighed
 * with the postal code and what the text names, typos compared without a lookup, then the ranking
 * and the confidence: the answer's share of a softmax over its rivals' scores and a score for
 * "none of these".
 */
import { LEVELS } from "../codes";
import { type CodeTarget, type Evidence, type Labelled, type Lookup, type Postal, within } from "./evidence";
import { chainOf, cover, exactMatch, LEVEL_BIT, localMatches, type Match, type RegionHit, typoSpans, W } from "./matching";
import type { ParsedAddress, WrittenCode } from "./parse";
import { MAX_SEGMENT_WORDS, type Phrase } from "./phrases";

const UNEXPLAINED_MAX = 4;

export type Candidate = {
  hit: RegionHit;
  score: number;
  used: Match[];
  postal: "match" | "near" | "mismatch" | null;
  kabInconsistent: boolean;
  kecInconsistent: boolean;
};

// ---------------------------------------------------------------- candidates

/** The regions the text may mean, each with the matches that name it, in the order found. */
export type Candidates = {
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
export type Frame = {
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
export const usesSegment = (used: Match[], seg: number) => used.some((m) => m.seg === seg);
export const explainedWords = (used: Match[]) => used.reduce((a, m) => a + m.to - m.from, 0);

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
export type Choice = { ranked: Candidate[]; top: Candidate; outside: Candidate | undefined; former: boolean };

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
export type Odds = { confidence: number; alternatives: { hit: RegionHit; confidence: number }[]; rivals: Candidate[]; unexplained: number; skipped: boolean };

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
