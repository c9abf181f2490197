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
import { normalizeSearchText } from "../normalize";
import { editDistance, maxEdits } from "../search/plan";
import type { ParsedAddress } from "./parse";
import { MAX_SEGMENT_WORDS, type Phrase } from "./phrases";

/** A region as the lookup returns it (wilayah_search and, for a village, its postal code). */
export type RegionHit = { id: string; level: Level; name: string; altName: string; parent: string | null; postal: string | null };

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

/** Weights of the evidence (docs/address-method.md, "Scoring"); tuned on the generated set, checked on other draws. */
export const W = {
  /** Per word of the text a match explains. */
  word: 1.5,
  /** Once per level of the candidate's chain that the text names. */
  level: { provinsi: 1, kabupaten: 2.5, kecamatan: 2.5, kelurahan: 3 } as Record<Level, number>,
  /** A level word that says another level (`Kec. X` read as a village, `Kab. X` as a village). */
  hintMismatch: 5,
  /** A dusun's or kampung's name read as a region (`Kp. Rambutan` is Kelurahan Rambutan, `Kp. Melayu` Kampung Melayu; `Dusun Krajan` is a hamlet). */
  below: 2.5,
  /** A word of a street's tail read as a region (`jl raya serang km 12 bitung jaya cikupa tangerang`). */
  street: 1,
  /** `Kab. X` read as Kota X, or `Kota X` as Kabupaten X. */
  kabAsKota: 1.5,
  /** A village or kecamatan named only by the name of a kabupaten/kota or provinsi, none of its parents written. */
  cityName: 1.5,
  /** A kota named by its bare name, no `Kota`/`Kab.` written: `Bandung`, `Malang` alone mean the city more often than the regency. */
  kotaBare: 0.25,
  /** Per corrected word (vocabulary) or per edit (comparison). */
  correction: 1,
  /** A village named by another spelling than its name (an earlier edition's, an alias). */
  alias: 0.5,
  /** A span read through a name reading (spacing, old spelling, short form, historic name). */
  reading: 0.3,
  postalMatch: 2.5,
  /** A region code written in the text (`32.73.01.1001`) that is the candidate's or one of its parents': a code says which region exactly, so it outweighs a name. */
  code: 4,
  /** ... a code of an earlier edition, read through its successor (the link the history drew may be a judgement: docs/history-method.md). */
  formerCode: 0.5,
  /** ... one of several successors (the region was split): the names written decide between them. */
  split: 2,
  postalNear: 1,
  postalMismatch: 1,
  /** The score of "none of these" in the softmax (temperature 1)... */
  none: 2,
  /** ... plus this per word of the region segments the answer leaves unexplained (at most UNEXPLAINED_MAX): words nothing explains make a place not considered likelier (`hello world` is not surely the village Hello). */
  unexplained: 0.75,
  /** `ambiguous` when the best rival scores within this of the answer. */
  ambiguousWithin: 1,
  /** Village candidates compared against the words as written when words are left unexplained. */
  localTop: 15,
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

/** How a match read its words: the region's name, another of its spellings, a name of an earlier edition, a name reading, a typo. */
export type Via = "name" | "alias" | "former_name" | "reading" | "typo" | "code" | "former_code";

/** A region of a candidate's chain explaining words [from, to) of segment `seg`. */
type Match = {
  seg: number;
  from: number;
  to: number;
  /** What was read (normalised). */
  phrase: string;
  id: string;
  level: Level;
  value: number;
  via: Via;
  reading: ReadingKind | null;
  kindMismatch: boolean;
};

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

const chainOf = (id: string) => {
  const p = id.split(".");
  return p.map((_, i) => p.slice(0, i + 1).join("."));
};
const LEVEL_BIT: Record<Level, number> = { provinsi: 1, kabupaten: 2, kecamatan: 4, kelurahan: 8 };
const KIND_PREFIX = /^(kabupaten administrasi|kota administrasi|kabupaten|kota) /;

function exactMatch(p: Phrase, hit: RegionHit, former: boolean): Match {
  let value = W.word * (p.to - p.from) - W.correction * p.corrections.length;
  if (p.hint && p.hint !== hit.level) value -= W.hintMismatch;
  if (p.below) value -= W.below;
  if (p.street) value -= W.street;
  const kindMismatch = !!p.kind && hit.level === "kabupaten" && (hit.name.startsWith("Kota") ? "kota" : "kabupaten") !== p.kind;
  if (kindMismatch) value -= W.kabAsKota;
  if (!p.kind && hit.level === "kabupaten" && hit.name.startsWith("Kota ") && normalizeSearchText(hit.altName) === p.phrase) value += W.kotaBare;
  const own = [hit.name, hit.altName].map(normalizeSearchText);
  const bare = p.phrase.replace(/^(kota|kabupaten) /, "");
  const alias = !own.includes(p.phrase) && !own.some((o) => o.replace(KIND_PREFIX, "") === bare);
  if (alias && hit.level === "kelurahan") value -= W.alias;
  if (p.reading) value -= W.reading;
  const via: Via = p.corrections.length ? "typo" : p.reading ? "reading" : former ? "former_name" : alias ? "alias" : "name";
  return { seg: p.seg, from: p.from, to: p.to, phrase: p.phrase, id: hit.id, level: hit.level, value, via, reading: p.reading, kindMismatch };
}

// ---------------------------------------------------------------- typos without a lookup

/** Spans compared for typos, their distinct phrases numbered (distances are kept per phrase and name). */
type Spans = { list: (Phrase & { pi: number })[]; phrases: string[] };

function typoSpans(phrases: Phrase[]): Spans {
  const texts: string[] = [];
  const index = new Map<string, number>();
  const seen = new Set<string>();
  const list: Spans["list"] = [];
  // As written (no corrected or read variants), 1-4 words, 4+ characters.
  for (const p of phrases) {
    if (p.corrections.length || p.reading || p.to - p.from > 4 || p.phrase.length < 4) continue;
    const k = `${p.seg}|${p.from}|${p.to}|${p.phrase}|${p.hint ?? ""}|${p.below ? 1 : 0}|${p.street ? 1 : 0}`;
    if (seen.has(k)) continue;
    seen.add(k);
    let pi = index.get(p.phrase);
    if (pi === undefined) {
      pi = texts.push(p.phrase) - 1;
      index.set(p.phrase, pi);
    }
    list.push({ ...p, pi });
  }
  return { list, phrases: texts };
}

type ChainMember = { level: Level; id: string; names: string[] };

/** The names of a region's chain: its own, then its parents' (from wilayah_search.parent, nearest first). */
function chainNames(hit: RegionHit): ChainMember[] {
  const own = { level: hit.level, id: hit.id, names: [...new Set([normalizeSearchText(hit.name), normalizeSearchText(hit.altName)])] };
  if (!hit.parent) return [own];
  const ids = chainOf(hit.id).slice(0, -1).reverse();
  return [
    own,
    ...hit.parent.split(", ").map((n, i) => {
      const norm = normalizeSearchText(n);
      return { level: LEVELS[ids[i].split(".").length - 1], id: ids[i], names: [...new Set([norm, norm.replace(KIND_PREFIX, "")])] };
    }),
  ];
}

/** Spans within the typo distance of a name of the member (1 edit for 4-7 letters, 2 from 8). */
function memberMatches(t: ChainMember, spans: Spans): Match[] {
  const out: Match[] = [];
  for (const name of t.names) {
    const bareLength = name.replace(KIND_PREFIX, "").length;
    if (bareLength < 4) continue;
    const limit = Math.min(2, maxEdits(bareLength));
    const known = new Int8Array(spans.phrases.length).fill(-1);
    for (const p of spans.list) {
      if (Math.abs(name.length - p.phrase.length) > limit) continue;
      let d = known[p.pi];
      if (d < 0) {
        d = Math.min(100, editDistance(p.phrase, name));
        known[p.pi] = d;
      }
      if (d === 0 || d > limit) continue;
      let value = W.word * (p.to - p.from) - W.correction * d;
      if (p.hint && p.hint !== t.level) value -= W.hintMismatch;
      if (p.below) value -= W.below;
      if (p.street) value -= W.street;
      out.push({ seg: p.seg, from: p.from, to: p.to, phrase: name, id: t.id, level: t.level, value, via: "typo", reading: null, kindMismatch: false });
    }
  }
  return out;
}

/** A village's typo matches: its chain's members compared once per address (`memo`), shared by the villages of one kecamatan. */
function localMatches(hit: RegionHit, spans: Spans, memo: Map<string, Match[]>): Match[] {
  const out: Match[] = [];
  for (const t of chainNames(hit)) {
    let ms = memo.get(t.id);
    if (!ms) {
      ms = memberMatches(t, spans);
      memo.set(t.id, ms);
    }
    out.push(...ms);
  }
  return out;
}

// ---------------------------------------------------------------- cover

/**
 * The best cover of the text by a candidate's chain: non-overlapping matches inside each segment,
 * each level's weight counted once (dynamic programming over word positions x levels used). A
 * candidate must use its own name (a kecamatan explained by its kabupaten's name alone is only the kabupaten).
 */
function cover(segLengths: number[], matches: Match[], mustUse: number): { value: number; used: Match[] } | null {
  const offsets: number[] = [];
  let n = 0;
  for (const l of segLengths) {
    offsets.push(n);
    n += l;
  }
  const byStart: Match[][] = Array.from({ length: n }, () => []);
  for (const m of matches) byStart[offsets[m.seg] + m.from].push(m);
  // best[p * 16 + mask]: the best value of words [0, p) using the levels in mask; back*: how it was reached.
  const size = (n + 1) * 16;
  const best = new Float64Array(size).fill(Number.NEGATIVE_INFINITY);
  const backFrom = new Int32Array(size).fill(-1);
  const backMatch: (Match | null)[] = new Array(size).fill(null);
  best[0] = 0;
  for (let p = 0; p < n; p++) {
    for (let mask = 0; mask < 16; mask++) {
      const at = p * 16 + mask;
      const v = best[at];
      if (v === Number.NEGATIVE_INFINITY) continue;
      const skip = at + 16;
      if (v > best[skip]) {
        best[skip] = v;
        backFrom[skip] = at;
        backMatch[skip] = null;
      }
      for (const m of byStart[p]) {
        const to = (offsets[m.seg] + m.to) * 16 + (mask | LEVEL_BIT[m.level]);
        if (v + m.value > best[to]) {
          best[to] = v + m.value;
          backFrom[to] = at;
          backMatch[to] = m;
        }
      }
    }
  }
  let top: { value: number; mask: number } | null = null;
  for (let mask = 0; mask < 16; mask++) {
    const v = best[n * 16 + mask];
    if ((mask & mustUse) !== mustUse || v === Number.NEGATIVE_INFINITY) continue;
    let value = v;
    for (const l of LEVELS) if (mask & LEVEL_BIT[l]) value += W.level[l];
    if (!top || value > top.value) top = { value, mask };
  }
  if (!top) return null;
  const used: Match[] = [];
  for (let at = n * 16 + top.mask; at > 15; at = backFrom[at]) {
    const m = backMatch[at];
    if (m) used.push(m);
    if (backFrom[at] < 0) break;
  }
  return { value: top.value, used: used.reverse() };
}

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
