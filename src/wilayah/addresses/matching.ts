/**
 * How phrases match the regions of a candidate's chain (moved from resolve.ts): the evidence
 * weights, an exact match's value, the typo matches made without a lookup, and the best cover of
 * the segments' words (docs/address-method.md, "Scoring").
 */
import { LEVELS, type Level } from "../codes";
import { editDistance, maxEdits } from "../edits";
import type { ReadingKind } from "../names/readings";
import { normalizeSearchText } from "../normalize";
import type { Phrase } from "./phrases";

/** A region as the lookup returns it (wilayah_search and, for a village, its postal code). */
export type RegionHit = { id: string; level: Level; name: string; altName: string; parent: string | null; postal: string | null };
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
  /** ... plus this when the text labels a kecamatan (`Kec. X`) and the answer is above it, having read no kecamatan in X. */
  kecamatanSkipped: 5,
  /** `ambiguous` when the best rival scores within this of the answer. */
  ambiguousWithin: 1,
  /** Village candidates compared against the words as written when words are left unexplained. */
  localTop: 15,
};
/** How a match read its words: the region's name, another of its spellings, a name of an earlier edition, a name reading, a typo. */
export type Via = "name" | "alias" | "former_name" | "reading" | "typo" | "code" | "former_code";
/** A region of a candidate's chain explaining words [from, to) of segment `seg`. */
export type Match = {
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
/** A region of a lower level than the provinsi or kabupaten/kota its segment is marked as. */
const below = (upper: Phrase["upper"], level: Level) => !!upper && LEVELS.indexOf(level) > LEVELS.indexOf(upper);
export const chainOf = (id: string) => {
  const p = id.split(".");
  return p.map((_, i) => p.slice(0, i + 1).join("."));
};
export const LEVEL_BIT: Record<Level, number> = { provinsi: 1, kabupaten: 2, kecamatan: 4, kelurahan: 8 };
const KIND_PREFIX = /^(kabupaten administrasi|kota administrasi|kabupaten|kota) /;

/** A hit's own spellings, normalised once per hit: exactMatch meets the same hit for many phrases. */
const ownNames = new WeakMap<RegionHit, string[]>();
function ownNamesOf(hit: RegionHit): string[] {
  const known = ownNames.get(hit);
  if (known) return known;
  const own = [normalizeSearchText(hit.name), normalizeSearchText(hit.altName)];
  ownNames.set(hit, own);
  return own;
}

export function exactMatch(p: Phrase, hit: RegionHit, former: boolean): Match {
  let value = W.word * (p.to - p.from) - W.correction * p.corrections.length;
  if ((p.hint && p.hint !== hit.level) || below(p.upper, hit.level)) value -= W.hintMismatch;
  if (p.below) value -= W.below;
  if (p.street) value -= W.street;
  const kindMismatch = !!p.kind && hit.level === "kabupaten" && (hit.name.startsWith("Kota") ? "kota" : "kabupaten") !== p.kind;
  if (kindMismatch) value -= W.kabAsKota;
  const own = ownNamesOf(hit);
  if (!p.kind && hit.level === "kabupaten" && hit.name.startsWith("Kota ") && own[1] === p.phrase) value += W.kotaBare;
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

export function typoSpans(phrases: Phrase[]): Spans {
  const texts: string[] = [];
  const index = new Map<string, number>();
  const seen = new Set<string>();
  const list: Spans["list"] = [];
  // As written (no corrected or read variants), 1-4 words, 4+ characters.
  for (const p of phrases) {
    if (p.corrections.length || p.reading || p.to - p.from > 4 || p.phrase.length < 4) continue;
    const k = `${p.seg}|${p.from}|${p.to}|${p.phrase}|${p.hint ?? ""}|${p.below ? 1 : 0}|${p.street ? 1 : 0}|${p.upper ?? ""}`;
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

const chains = new WeakMap<RegionHit, readonly ChainMember[]>();

/** The names of a region's chain: its own, then its parents' (from wilayah_search.parent, nearest first); made once per hit (read, never changed). */
function chainNames(hit: RegionHit): readonly ChainMember[] {
  const known = chains.get(hit);
  if (known) return known;
  const own = { level: hit.level, id: hit.id, names: [...new Set(ownNamesOf(hit))] };
  const ids = chainOf(hit.id).slice(0, -1).reverse();
  const chain = !hit.parent
    ? [own]
    : [
        own,
        ...hit.parent.split(", ").map((n, i) => {
          const norm = normalizeSearchText(n);
          return { level: LEVELS[ids[i].split(".").length - 1], id: ids[i], names: [...new Set([norm, norm.replace(KIND_PREFIX, "")])] };
        }),
      ];
  chains.set(hit, chain);
  return chain;
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
      if ((p.hint && p.hint !== t.level) || below(p.upper, t.level)) value -= W.hintMismatch;
      if (p.below) value -= W.below;
      if (p.street) value -= W.street;
      out.push({ seg: p.seg, from: p.from, to: p.to, phrase: name, id: t.id, level: t.level, value, via: "typo", reading: null, kindMismatch: false });
    }
  }
  return out;
}

/** A village's typo matches: its chain's members compared once per address (`memo`), shared by the villages of one kecamatan. */
export function localMatches(hit: RegionHit, spans: Spans, memo: Map<string, Match[]>): Match[] {
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
export function cover(segLengths: number[], matches: Match[], mustUse: number): { value: number; used: Match[] } | null {
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
