/**
 * The phrases of a parsed address that may name a region (docs/address-method.md, "Readings"). Pure:
 * the search vocabulary and the name table are handed in (the Worker's: search/vocabulary.ts
 * `vocabulary()`, names/shipped.ts `nameTable()`), so the address resolver reads names exactly as
 * search does, against the very words search indexes.
 *
 * For each region segment (its first MAX_SEGMENT_WORDS words), every span of 1 to MAX_SPAN
 * consecutive words is a phrase, normalised as the index normalises names, read:
 * - as typed, and as spelled when punctuation differs (`Sei. Pudak`, `Pa' Tera`, `Ps.Baru`), a
 *   reduplicated word with and without its hyphen (`Wangi-Wangi`, `Fak Fak`);
 * - through the name readings of search (src/wilayah/names/readings.ts: spacing, old spellings,
 *   short forms, historic names: `bdg` -> `bandung`, `bukit kecil` -> `bukitkecil`);
 * - with one word corrected: each word of 4+ letters that is no vocabulary word gets up to
 *   CORRECTIONS_PER_WORD words within search's edit budget (edits.ts `maxEdits`), likeliest first (`nearWords`);
 * - at the start of a marked segment, with what the marker says: the level as a hint, `kota X` for
 *   `Kota`/`Kotamadya`, `kabupaten X` for `Kab.` (the index holds `Kota Bandung`, `Kabupaten Bandung`
 *   and the bare `Bandung` of both), and the marker word as the name's first word (`Desa Baru`,
 *   `Kota Baru`, `Kampung Melayu` from `Kp. Melayu`);
 * - a segment ending in `kota`/`kab` (`Bandung Kota`) also as `kota X`/`kabupaten X`.
 * At most MAX_PHRASES distinct phrases per address: every span as typed first, then the readings,
 * then the corrections, so a long run of unknown words cannot crowd out the kabupaten at the end.
 */
import { LRUCache } from "lru-cache";
import type { Level } from "../codes";
import { maxEdits, nearWords } from "../edits";
import type { WordCount } from "../names/lexicon";
import { type NameContext, nameReadings, type ReadingKind } from "../names/readings";
import { ADMIN_FORMS, LEVEL_WORDS, STREET_WORDS } from "../names/table";
import { normalizeSearchText } from "../normalize";
import type { ParsedAddress } from "./parse";

/** What the phrases need of the search vocabulary: name readings' lexicon, and typo candidates. */
export type Words = NameContext["lexicon"] & { similarWords(word: string, edits: number): WordCount[] };

/** A phrase of a segment that may name a region: words [from, to) of region segment `seg`. */
export type Phrase = {
  seg: number;
  from: number;
  to: number;
  /** Normalised, as the index holds terms. */
  phrase: string;
  /** The level the segment's marker says (only on spans starting at the marker). */
  hint?: Level;
  /** The kind written before a bare name (`Kab. Bandung` read as `bandung`): the other kind fits at a cost. */
  kind?: "kota" | "kabupaten";
  /** A dusun or kampung's name read as a region: it names something below a village, at a cost. */
  below?: boolean;
  /** Words of a street's tail (parse.ts `fromStreet`): maybe regions, maybe the street's name, at a cost. */
  street?: boolean;
  /** Words read as other words of the vocabulary (typos). */
  corrections: { typed: string; matched: string }[];
  /** The name reading that rewrote the span, if any. */
  reading: ReadingKind | null;
  /** Read only as a region of this level (`Kec. Juang` as the kecamatan Kota Juang, not as Kota X). */
  only?: Level;
  /** The segment is marked as a provinsi or kabupaten/kota (`Prov. Papua Barat`): a part of it read as a lower region costs as a wrong hint. */
  upper?: "provinsi" | "kabupaten";
};

export const MAX_SPAN = 6;
/** Words of a segment read: a longer run without commas or level words is no address part. */
export const MAX_SEGMENT_WORDS = 16;
const CORRECTIONS_PER_WORD = 4;
/** Name readings per span. */
const READINGS_PER_SPAN = 2;
/** Distinct phrases looked up per address. */
export const MAX_PHRASES = 160;

/** How a hamlet or level word is written in a name (`Kp. Melayu` is `Kampung Melayu`). */
const WORD_IN_NAME: Record<string, string> = {
  kp: "kampung",
  kmp: "kampung",
  dk: "dukuh",
  ds: "desa",
  dsn: "dusun",
  kel: "kelurahan",
  lingk: "lingkungan",
  kab: "kabupaten",
  kec: "kecamatan",
};

const generic = new WeakMap<NameContext["table"], Map<string, string>>();
/** The table's generic short forms of name words (`tg` Tanjung, `kp` Kampung, `pd` Pondok, `ps` Pasar); not level or street words, which the parser reads. */
function shortForms(table: NameContext["table"]): Map<string, string> {
  let map = generic.get(table);
  if (!map) {
    map = new Map(
      table.entries
        .filter(
          (e) =>
            (e.kind === "generic" || e.kind === "variant") &&
            !e.typed.includes(" ") &&
            !LEVEL_WORDS.has(e.reads) &&
            !STREET_WORDS.has(e.reads) &&
            !ADMIN_FORMS.has(e.typed),
        )
        .map((e) => [e.typed, e.reads]),
    );
    generic.set(table, map);
  }
  return map;
}

/**
 * Words' corrections already found, per vocabulary (one per isolate): the words of addresses repeat
 * (85% of the 19,740 words of 4+ letters in the 3,084 distinct school addresses of
 * test/fixtures/address-world.json occur earlier in it), and finding a word's candidates was about
 * a third of a bulk address job's JavaScript (docs/performance.md, "Bulk jobs").
 */
const corrected = new WeakMap<Words, LRUCache<string, readonly string[]>>();
const CORRECTED_MAX = 20_000;

/** Typo candidates of a word no indexed name holds (letters only, 4+, as search): likeliest first (edits.ts `nearWords`). */
function corrections(word: string, words: Words): readonly string[] {
  if (!/^[a-z]{4,}$/.test(word) || words.has(word)) return [];
  let known = corrected.get(words);
  if (!known) {
    known = new LRUCache({ max: CORRECTED_MAX });
    corrected.set(words, known);
  }
  let out = known.get(word);
  if (!out) {
    const k = maxEdits(word.length);
    out = nearWords(word, words.similarWords(word, k), k)
      .slice(0, CORRECTIONS_PER_WORD)
      .map((c) => c.w);
    known.set(word, out);
  }
  return out;
}

/** Every phrase of the address's region segments (see the header), at most MAX_PHRASES distinct strings. */
export function phrasesOf(parsed: ParsedAddress, ctx: { lexicon: Words; table: NameContext["table"] }): Phrase[] {
  // Three classes, in the order they are kept under the cap: as typed, read, corrected.
  const classes: Phrase[][] = [[], [], []];
  parsed.regions.forEach((s, seg) => {
    const w = s.words.slice(0, MAX_SEGMENT_WORDS);
    const fixes = w.map((x) => corrections(x, ctx.lexicon));
    const hamlet = s.marker === "kampung" || s.marker === "dusun";
    const rawFirst = normalizeSearchText(s.raw)
      .split(" ")[0]
      .replace(/[.:]+$/, "");
    const own = WORD_IN_NAME[rawFirst] ?? rawFirst;
    const kind = s.marker === "kab" ? "kabupaten" : s.marker === "kota" || s.marker === "kotamadya" ? "kota" : undefined;
    const push = (cls: number, base: Omit<Phrase, "phrase" | "hint" | "kind" | "below" | "street">, phrase: string) => {
      const out = classes[cls];
      const upper = s.level === "provinsi" || s.level === "kabupaten" ? { upper: s.level } : {};
      const tagged = hamlet ? { ...base, below: true } : s.fromStreet ? { ...base, street: true } : { ...base, ...upper };
      if (base.from === 0 && s.marker) {
        if (kind === "kota") out.push({ ...tagged, phrase: `kota ${phrase}`, hint: "kabupaten" });
        if (kind === "kabupaten") out.push({ ...tagged, phrase: `kabupaten ${phrase}`, hint: "kabupaten" });
        // Some kecamatan are named `Kota X` (Kota Juang, Kota Kualasimpang) and written without it.
        if (s.level === "kecamatan" && !phrase.startsWith("kota ")) out.push({ ...tagged, phrase: `kota ${phrase}`, hint: "kecamatan", only: "kecamatan" });
        out.push({ ...tagged, phrase, ...(s.level ? { hint: s.level } : {}), ...(kind ? { kind } : {}) });
        // The level word may be the name's own (`Desa Baru`, `Kota Baru`, `Kampung Melayu`).
        if (/^[a-z]+$/.test(own)) out.push({ ...base, phrase: `${own} ${phrase}` });
      } else out.push({ ...tagged, phrase });
    };
    for (let from = 0; from < w.length; from++) {
      for (let to = from + 1; to <= Math.min(w.length, from + MAX_SPAN); to++) {
        const span = w.slice(from, to);
        const typed = span.join(" ");
        const base = { seg, from, to, corrections: [], reading: null };
        push(0, base, typed);
        // As spelled, punctuation kept (`Sei. Pudak`, `Pa' Tera`, `Kassi - Kassi`, `Ps.Baru`).
        const spelled = normalizeSearchText(s.text.slice(s.at[from][0], s.at[to - 1][1]));
        if (spelled !== typed) push(0, base, spelled);
        // Reduplicated words with or without their hyphen (`Wangi-Wangi Selatan` is Wangi Wangi Selatan, `Fak Fak` Fak-Fak).
        if (typed.includes("-")) push(0, base, typed.replaceAll("-", " "));
        else if (/\b([a-z]+) \1\b/.test(typed)) push(0, base, typed.replace(/\b([a-z]+) \1\b/g, "$1-$1"));
        for (const r of nameReadings(typed, ctx, READINGS_PER_SPAN)) push(1, { ...base, reading: r.kind }, r.q);
        // Short forms of common name words spelled out even where the word is also a name word
        // (search reads `ps` as typed: Ps. Tebing Tinggi is official); an address's `Ps. Baru` is Pasar Baru.
        const spelledOut = span.map((x) => shortForms(ctx.table).get(x) ?? x).join(" ");
        if (spelledOut !== typed) {
          push(1, { ...base, reading: "abbreviation" }, spelledOut);
          // ... and read as search reads it (`tanjung karang bar.` is Tanjungkarang Barat).
          for (const r of nameReadings(spelledOut, ctx, 1)) push(1, { ...base, reading: "abbreviation" }, r.q);
        }
        // The marker word as the name's own, read as search reads it (`Kota Baru` is Kotabaru).
        if (from === 0 && s.marker && /^[a-z]+$/.test(own)) {
          for (const r of nameReadings(`${own} ${typed}`, ctx, READINGS_PER_SPAN)) classes[1].push({ ...base, reading: r.kind, phrase: r.q });
        }
        for (let i = from; i < to; i++) {
          for (const f of fixes[i]) {
            const fixed = [...span];
            fixed[i - from] = f;
            push(2, { ...base, corrections: [{ typed: w[i], matched: f }] }, fixed.join(" "));
          }
        }
      }
    }
    // `Bandung Kota`, `Bandung Kab.`: the level word after the name, read as its prefix too.
    const last = w[w.length - 1];
    const prefix = last === "kota" ? "kota" : last === "kab" || last === "kabupaten" ? "kabupaten" : null;
    if (prefix && w.length >= 2) {
      for (let from = Math.max(0, w.length - 1 - MAX_SPAN); from < w.length - 1; from++) {
        classes[0].push({ seg, from, to: w.length, phrase: `${prefix} ${w.slice(from, -1).join(" ")}`, hint: "kabupaten", corrections: [], reading: null });
      }
    }
  });
  const kept = new Set<string>();
  const out: Phrase[] = [];
  for (const list of classes) {
    for (const p of list) {
      if (!kept.has(p.phrase)) {
        if (kept.size >= MAX_PHRASES) continue;
        kept.add(p.phrase);
      }
      out.push(p);
    }
  }
  return out;
}
