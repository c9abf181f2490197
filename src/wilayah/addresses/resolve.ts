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
import { nearContextName } from "../search/plan";
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
  "kecamatan_former",
  "kecamatan_unknown",
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

/** Whether `id` lies in `area` or is one of its parents (the area itself included). */
const related = (id: string, area: string) => id === area || id.startsWith(`${area}.`) || area.startsWith(`${id}.`);

/** Whether `id` is related to one of `areas`; no areas bind nothing (no scope named, no kecamatan labelled). */
const within = (id: string, areas: Iterable<string>) => {
  const list = [...areas];
  return list.length === 0 || list.some((a) => related(id, a));
};

/** Whether a cover explains some words of segment `seg`. */
const usesSegment = (used: Match[], seg: number) => used.some((m) => m.seg === seg);

/** Files a match under the region it names; `hits` keeps each region once, in the order found. */
function addMatch(byRegion: Map<string, Match[]>, hits: Map<string, RegionHit>, hit: RegionHit, m: Match): void {
  const list = byRegion.get(hit.id);
  if (list) list.push(m);
  else byRegion.set(hit.id, [m]);
  hits.set(hit.id, hit);
}

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
function labelledKecamatan(
  parsed: ParsedAddress,
  phrases: Phrase[],
  found: Lookup,
  scope: string[],
  extra: RegionHit[],
): { ids: Set<string>; unmatched: boolean; partial: boolean; fuzzy?: { seg: number; length: number; d: number; phrase: string } } {
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

/**
 * Scores every candidate (see the header) and answers the best, with its confidence, up to three
 * other candidates, its warnings and what matched which level. `rounds.extra`: regions of a second
 * round (the area `expand` named), compared against the words as written; `rounds.moved`: the
 * earlier codes of the village `movedCheck` named.
 */
export function resolve(parsed: ParsedAddress, phrases: Phrase[], found: Lookup, rounds: Rounds = {}): Resolution {
  const extra = rounds.extra ?? [];
  const byRegion = new Map<string, Match[]>();
  const hits = new Map<string, RegionHit>();
  for (const p of phrases) {
    for (const { hit, former } of found.byTerm.get(p.phrase) ?? []) {
      if (p.only && hit.level !== p.only) continue;
      addMatch(byRegion, hits, hit, exactMatch(p, hit, former));
    }
  }
  const scope = namedScope(parsed, phrases, found);
  const labelled = labelledKecamatan(parsed, phrases, found, scope, extra);
  // A labelled kecamatan found only by comparison (second round): matched as a corrected typo.
  if (labelled.fuzzy) {
    const { seg, length, d, phrase } = labelled.fuzzy;
    for (const id of labelled.ids) {
      const hit = extra.find((h) => h.id === id);
      if (!hit) continue;
      const m: Match = {
        seg,
        from: 0,
        to: length,
        phrase,
        id,
        level: "kecamatan",
        value: W.word * length - W.correction * d,
        via: "typo",
        reading: null,
        kindMismatch: false,
      };
      addMatch(byRegion, hits, hit, m);
    }
  }
  const postal = parsed.components.postal_code;
  const postalVillages = postal ? (found.byPostal.get(postal) ?? []) : [];
  const postalIds = new Set(postalVillages.map((v) => v.id));
  const postalKecs = new Set(postalVillages.map((v) => v.id.slice(0, 8)));
  const localOnly = new Map<string, RegionHit>();
  for (const v of [...postalVillages, ...extra]) if (!hits.has(v.id)) localOnly.set(v.id, v);

  const namesOwnParent = (phrase: string, id: string) =>
    (found.byTerm.get(phrase) ?? []).some((x) => (x.hit.level === "kabupaten" || x.hit.level === "provinsi") && id.startsWith(`${x.hit.id}.`));
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
      addMatch(byRegion, hits, hit, m);
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
    // So also when the words that name it name its own kabupaten/kota too (the village Kota
    // Lhokseumawe in Kota Lhokseumawe: `Kota Lhokseumawe, Aceh` is the city).
    const lower = hit.level === "kelurahan" || hit.level === "kecamatan";
    if (
      lower &&
      ((c.used.every((m) => m.level === hit.level) && c.used.some((m) => namesUpper(m.phrase))) ||
        c.used.some((m) => m.id === hit.id && namesOwnParent(m.phrase, hit.id)))
    )
      total -= W.cityName;
    let postalState: Candidate["postal"] = null;
    if (postal) {
      if (hit.level === "kelurahan") postalState = postalIds.has(hit.id) ? "match" : postalKecs.has(hit.id.slice(0, 8)) ? "near" : "mismatch";
      else postalState = postalVillages.some((v) => v.id.startsWith(`${hit.id}.`)) ? "near" : "mismatch";
      total += postalState === "match" ? W.postalMatch : postalState === "near" ? W.postalNear : -W.postalMismatch;
    }
    // A kabupaten the text names with its level word that this chain does not explain, or not of its kind.
    const kabInconsistent = kabSegs.some((i) => !usesSegment(c.used, i)) || c.used.some((m) => m.kindMismatch);
    // A kecamatan the text names with its level word that this village's or kecamatan's chain does not explain.
    const kecInconsistent = (hit.level === "kelurahan" || hit.level === "kecamatan") && kecSegs.some((i) => !usesSegment(c.used, i));
    return { hit, score: total, used: c.used, postal: postalState, kabInconsistent, kecInconsistent };
  };

  const scored = new Map<string, Candidate>();
  for (const hit of hits.values()) {
    if (!within(hit.id, scope)) continue;
    const c = score(hit, []);
    if (c) scored.set(hit.id, c);
  }
  // Typos the vocabulary could not correct, only when the best exact reading leaves words
  // unexplained: the best villages, those of the postal code and the regions of the second round,
  // compared against their chain's names.
  const first = [...scored.values()].reduce<Candidate | null>((a, c) => (!a || c.score > a.score ? c : a), null);
  const explained = first ? first.used.reduce((a, m) => a + m.to - m.from, 0) : 0;
  if (explained < wordCount) {
    const villages = [...scored.values()].filter((c) => c.hit.level === "kelurahan").sort((a, b) => b.score - a.score);
    const again = [...villages.slice(0, W.localTop).map((c) => c.hit), ...[...localOnly.values()].filter((h) => within(h.id, scope))];
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
  // The text's best reading, and the best inside the kecamatan its `Kec.` label names: a labelled
  // kecamatan binds the answer (a village of that name elsewhere is another place), unless the
  // village was in that kecamatan before a split moved it (`moved`: its earlier codes).
  const unbound = ranked[0];
  const movedFrom = (c: Candidate | undefined) =>
    c?.hit.level === "kelurahan" && (rounds.moved?.get(c.hit.id) ?? []).some((old) => [...labelled.ids].some((k) => old.startsWith(`${k}.`)));
  const outside =
    unbound && !within(unbound.hit.id, labelled.ids) && unbound.hit.level !== "provinsi" && unbound.hit.level !== "kabupaten" ? unbound : undefined;
  const former = outside && movedFrom(outside);
  const top = former ? outside : (ranked.find((c) => within(c.hit.id, labelled.ids)) ?? unbound);
  if (!top) return NOTHING(wordCount);
  // Rival explanations: not the answer's own parents (a weaker reading of the same place) nor the
  // regions inside it (a finer reading of it: the answer is right at its level either way).
  const topChain = new Set(chainOf(top.hit.id));
  const rivals = ranked.filter((c) => c !== top && !topChain.has(c.hit.id) && !c.hit.id.startsWith(`${top.hit.id}.`));
  const exp = (x: number) => Math.exp(x - top.score);
  const unexplained = wordCount - top.used.reduce((a, m) => a + m.to - m.from, 0);
  // A kecamatan the text labels (`Kec. X`) that the answer, a kabupaten or provinsi, does not reach:
  // the answer is sure of its own level only if that name is nothing at all, which is rarely so.
  const skipped =
    (top.hit.level === "kabupaten" || top.hit.level === "provinsi") && parsed.regions.some((s, i) => s.level === "kecamatan" && !usesSegment(top.used, i));
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

  const warnings: Warning[] = [];
  if (top.postal === "mismatch" || top.postal === "near") warnings.push("postal_code_mismatch");
  if (rivals[0] && top.score - rivals[0].score < W.ambiguousWithin) warnings.push("ambiguous");
  if (top.used.some((m) => m.via === "typo")) warnings.push("typo_corrected");
  if (top.used.some((m) => m.via === "former_name")) warnings.push("former_name");
  if (top.used.some((m) => m.via === "former_code")) warnings.push("former_code");
  if (parsed.codes.some((c) => c.id.length === 13 && found.unknownCodes.has(c.id))) warnings.push("unknown_code");
  if (top.kabInconsistent) warnings.push("kabupaten_inconsistent");
  if (skipped) warnings.push("kecamatan_unknown");
  if (former) warnings.push("kecamatan_former");
  else if (top.kecInconsistent || (outside && outside.hit.level === "kelurahan" && outside.score > top.score)) warnings.push("kecamatan_inconsistent");

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
  if (former) {
    // The kecamatan written, the village's before a split moved it: named, though not the answer's.
    const m = [...labelled.ids].flatMap((k) => byRegion.get(k) ?? []).find((x) => parsed.regions[x.seg]?.level === "kecamatan");
    const seg = m && parsed.regions[m.seg];
    if (m && seg)
      matched.push({
        level: "kecamatan",
        id: m.id,
        text: seg.text.slice(seg.at[m.from][0], seg.at[m.to - 1][1]),
        read: m.phrase,
        via: "former_kecamatan",
        reading: null,
      });
  }
  matched.sort((a, b) => LEVELS.indexOf(b.level) - LEVELS.indexOf(a.level));

  const own = top.used.find((m) => m.id === top.hit.id && m.level === "kelurahan");
  const ownSeg = own ? parsed.regions[own.seg] : undefined;
  const villageFromHamlet = ownSeg?.marker === "kampung" || ownSeg?.marker === "dusun";
  // A village outside the labelled kecamatan but in its kabupaten: did a split move it?
  const movedCheck =
    !rounds.moved && outside?.hit.level === "kelurahan" && [...labelled.ids].some((k) => k.slice(0, 5) === outside.hit.id.slice(0, 5)) ? outside.hit.id : null;
  return {
    top: top.hit,
    confidence: 1 / total,
    alternatives,
    warnings,
    matched,
    unexplained,
    villageFromHamlet,
    expand: rounds.extra ? null : areaToExpand(parsed, top, unexplained, scope, labelled.unmatched || labelled.partial),
    movedCheck,
  };
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
