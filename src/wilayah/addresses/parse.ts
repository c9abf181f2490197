/**
 * Reads a free-text Indonesian address into its parts (issue 24). Pure: no data, no I/O, so the
 * Worker and the scripts share it (it imports only ../codes.ts and its own modules: lexicon.ts the
 * tokens and marker words, walk.ts the walk's state and moves, labels.ts the values a label or a
 * number gives).
 *
 * What comes out:
 * - `components`, the parts that are not regions, as written: `street` (with its own word: `Jl.`,
 *   `Gg.`, because `Jalan Braga` and `Gang Braga` are different streets; several street pieces are
 *   joined with `, `), `house_number`, `rt`, `rw`, `block`, `building`, `complex` (also with their
 *   word: `Perum Griya Asri`, `Gedung Sate`), `dusun` (without it), `postal_code`.
 * - `regions`, the rest: the segments that may name a kelurahan/desa, kecamatan, kabupaten/kota or
 *   provinsi, each with the level word written before it (`Kel.`, `Desa`, `Kec.`, `Kab.`, `Kota`,
 *   `Kotamadya`, `Prov.`...), in the order written. The parser never decides which region a segment
 *   is: a segment may hold several levels (`kota bandung jawa barat`), and a level word may be part
 *   of a name (`Kota Baru`, `Desa Baru`, `Dukuh`), so each segment also keeps its text with the
 *   word (`raw`).
 *
 * How the text is cut: commas, semicolons, new lines, `|` and parentheses end a segment (a dash
 * does not: names hold ` - `, `Kassi - Kassi`); so does every marker word (a street, number, RT/RW, block, building or region word), so
 * addresses without commas (KTP lines, lowercase chat text) cut the same way. A street, building or
 * complex runs from its word to the next comma, marker or number: its words are never offered as
 * regions (`Jl. Bandung No. 12, Malang`: `Bandung` is the street). Inside a street, `Km 5` and
 * `Gg. 3` belong to the street and a second street word (`Jl. Kaliurang Gg. Mawar`) continues it.
 * The word right after any marker is always name text, never a marker (`Jl. Kota Baru`,
 * `Kel. Kota Baru`, `Desa Dusun Tua`), and `Kota` inside a name written without a level word or
 * as a hamlet's is a word of it (`Simpang Kota Medan`, `Dsn. Kota Baru II`). A bare number after a street is its house number; five
 * digits that no `No.`, `RT`, `RW`, `Blok` or `Km` claimed are the postal code.
 */
import type { Level } from "../codes.ts";
import { readBlock, readFloor, readHouse, readNumber, readPostalLabel, readRtRwLabel, readStreetPart, skipFieldLabel } from "./labels.ts";
import { ADMINISTRATIVE, isNumber, isPostal, LEVEL_OF, type Marker, type Tok, tokenize, WEAK, WORDS } from "./lexicon.ts";
import {
  type AddressComponents,
  close,
  noComponents,
  open,
  type Reader,
  type Segment,
  type Source,
  setOnce,
  slice,
  trimEnd,
  type Walk,
  type WrittenCode,
} from "./walk.ts";

export type { AddressComponents, WrittenCode } from "./walk.ts";

export type RegionSegment = {
  /** The name as written, without the level word. */
  text: string;
  /** The normalised words of `text` (lowercase, accents and edge punctuation removed). */
  words: string[];
  /**
   * Where each word is in `text`, `[start, end)`, a trailing `.` or `'` included: `text` between
   * two words, as written, holds what `words` leaves out (`Sei. Pudak`, `Pa' Tera`, `Kassi - Kassi`,
   * `Barename/Luanggi`, `Ps.Baru`), which some names have and most do not.
   */
  at: [number, number][];
  /** The level word before it, if any. */
  marker: Marker | null;
  /** The level that word says (`kampung`: none, it is below a village). */
  level: Level | null;
  /** The text with its level word, as written (`Kota Baru`): some names start with such a word. */
  raw: string;
  /** Which comma-separated part of the address it is in (0-based). */
  part: number;
  /** The tail of a street that ran to the end of a text with no other region words (see parseAddress). */
  fromStreet?: true;
  /**
   * Its level word follows other words of the same comma-separated part (`Simpang Kota Medan`,
   * `Pengalihan Keritang Kota Baru`): it may be a word of a longer name, a village's or a hamlet's.
   */
  afterWords?: true;
};

export type ParsedAddress = {
  components: AddressComponents;
  regions: RegionSegment[];
  /** Region codes written in the text, in order (at most MAX_CODES). */
  codes: WrittenCode[];
  /**
   * The last street piece ended at a comma or the end of the text, not at a number or a marker: with
   * no commas (`jl merdeka bandung`) its last words may be a region the writer did not set apart.
   */
  streetOpen: boolean;
};

// ---------------------------------------------------------------- parser

/** Tokenises, reads the labels (cutting the rest into segments), then reads the segments as components and regions. */
export function parseAddress(text: string): ParsedAddress {
  const walk = readLabels(text, tokenize(text));
  const { components, regions, streetOpen } = readComponents(walk);
  return { components, regions, codes: walk.codes, streetOpen };
}

// ---------------------------------------------------------------- read labels

/**
 * Walks the tokens: what a label says (RT/RW, house number, block, postal code) goes to the
 * components and region codes to `codes`; the rest is cut into segments at separators, markers and numbers.
 */
export function readLabels(text: string, toks: Tok[]): Walk {
  const w: Walk = { text, toks, components: noComponents(), codes: [], segments: [], part: 0, cur: null };
  let i = 0;
  while (i < toks.length) i = readToken(w, i);
  close(w, "end");
  return w;
}

/**
 * The readers, in the order they are tried. The word right after a marker is name text (`Jl. Kota
 * Baru`, `Kel. Kota Baru`, `Desa Dusun Tua`): only a postal code's label is read there too.
 */
const READERS: [Reader, boolean][] = [
  [readRtRwLabel, false],
  [readHouse, false],
  [readBlock, false],
  [readPostalLabel, true],
  [skipFieldLabel, false],
  [readFloor, false],
  [readStreetPart, false],
  [readNumber, false],
  [readMarker, false],
  [skipCountry, false],
];

function readToken(w: Walk, i: number): number {
  const t = w.toks[i];
  if (t.sep) {
    close(w, "sep");
    w.part++;
    return i + 1;
  }
  if (t.punct) return i + 1;
  const afterMarker = w.cur !== null && w.cur.from === w.cur.to && w.cur.from === i;
  for (const [read, evenAfterMarker] of READERS) {
    if (afterMarker && !evenAfterMarker) continue;
    const next = read(w, i);
    if (next !== null) return next;
  }
  return readName(w, i);
}

const SEGMENT_KINDS: ReadonlySet<string> = new Set(["street", "complex", "building", "dusun", "region"]);
const isSegmentKind = (kind: string): kind is Segment["kind"] => SEGMENT_KINDS.has(kind);

/** A street, complex, building, hamlet or level word starts a segment of its kind, unless it is a word of the name being read. */
function readMarker(w: Walk, i: number): number | null {
  const word = w.toks[i].w;
  const entry = WORDS[word];
  if (!entry || !isSegmentKind(entry.kind) || nameWord(w.cur, word, entry.kind)) return null;
  if (entry.kind === "region" && !nameFollows(w.toks, i, entry.marker)) return levelWordAlone(w, i);
  return openMarked(w, i, entry.kind, entry.marker ?? null);
}

/**
 * Building words are common in village names (`Belakang Gedung`, `Gedung Rejo`): inside a region
 * segment they are name words; a building starts a segment of its own. In a complex's or
 * building's name `Kota` is a word of it (`Perum Lima Puluh Kota Indah`), and so in a name
 * written with no level word or as a hamlet's (`Simpang Kota Medan` and `Aek Kota Batu` are
 * villages, `Dsn. Kota Baru II` a hamlet): the spans of the segment still read `Kota Medan` as
 * the city where nothing else explains it, but it names no region the answer must lie in.
 */
function nameWord(cur: Segment | null, word: string, kind: Segment["kind"]): boolean {
  if (!cur || cur.to <= cur.from) return false;
  if ((kind === "building" || WEAK.has(word)) && cur.kind === "region") return true;
  if (word !== "kota") return false;
  return (
    cur.kind === "complex" || cur.kind === "building" || cur.kind === "dusun" || (cur.kind === "region" && (cur.marker === null || cur.marker === "kampung"))
  );
}

/** Words that end a name before it starts: a level word before them has no name. */
const NO_NAME: ReadonlySet<string | undefined> = new Set(["house", "rt", "rw", "block", "street"]);

/**
 * Whether a name follows the level word at `i`: not at the end, nor before a comma, a number or a
 * street, house, RT or block word. A kecamatan's name may start with a number (`Kec. 2 x 11 Anam
 * Lingkuang`, Padang Pariaman) when words follow it.
 */
function nameFollows(toks: Tok[], i: number, marker: Marker | undefined): boolean {
  const next = toks[i + 1];
  if (!next || next.sep || NO_NAME.has(WORDS[next.w]?.kind)) return false;
  const after = toks[i + 2];
  return !isNumber(next) || (marker === "kec" && !!after && !after.sep && !after.punct);
}

/**
 * A level word with no name after it is a word of the segment before it: `Bandung Kota` may mean
 * Kota Bandung, some names end with such a word (`Menggala Kota`, `Gg. Ampana Kota No. 60`); the
 * resolver reads both. Alone in its part (`Dukuh, Kec. Delanggu`) a hamlet word is a name
 * (villages are called Dukuh).
 */
function levelWordAlone(w: Walk, i: number): number {
  if (w.cur && w.cur.to === i) w.cur.to = i + 1;
  else if (!w.cur && WEAK.has(w.toks[i].w)) w.cur = open(w, "region", null, i, i, i + 1);
  return i + 1;
}

/** Starts the segment a marker names; `Kel/Desa`, `Desa/Kel.`, `Kab/Kota` are KTP labels naming either kind, `Kota Adm.` a kota. */
function openMarked(w: Walk, i: number, kind: Segment["kind"], written: Marker | null): number {
  const { toks } = w;
  close(w, "marker");
  let from = i + 1;
  let marker = written;
  const other = toks[from]?.w === "/" ? WORDS[toks[from + 1]?.w] : undefined;
  if (kind === "region" && other?.kind === "region" && other.marker) {
    const pair = [marker, other.marker].sort().join("/");
    marker = pair === "desa/kel" ? "kel/desa" : pair === "kab/kota" ? "kab/kota" : marker;
    from += 2;
  }
  while (toks[from]?.punct && toks[from].w === ":") from++;
  if ((marker === "kota" || marker === "kab" || marker === "kotamadya") && ADMINISTRATIVE.has(toks[from]?.w ?? "")) from++;
  w.cur = open(w, kind, marker, i, from, from);
  return from;
}

/** `Indonesia` as a segment of its own; inside one it may be a name's (`Jambur Indonesia`). */
function skipCountry(w: Walk, i: number): number | null {
  const { toks } = w;
  const alone = i + 1 >= toks.length || toks[i + 1].sep || isPostal(toks[i + 1]);
  return WORDS[toks[i].w]?.kind === "country" && !w.cur && alone ? i + 1 : null;
}

/** Name text: extends the segment being read, or starts an unmarked region segment. */
function readName(w: Walk, i: number): number {
  if (!w.cur) w.cur = open(w, "region", null, i, i, i);
  w.cur.to = i + 1;
  return i + 1;
}

// ---------------------------------------------------------------- read components

/**
 * Reads the segments the walk cut: a street, complex or building is a component with its word; a
 * hamlet is the `dusun` component and a region segment too; the rest are region segments.
 */
export function readComponents(w: Walk): { components: AddressComponents; regions: RegionSegment[]; streetOpen: boolean } {
  const components = { ...w.components };
  const regions: RegionSegment[] = [];
  const streets: string[] = [];
  let streetOpen = false;
  for (const s of w.segments) {
    const withMarker = trimEnd(slice(w, s.markerFrom, s.to));
    if (s.kind === "street") {
      streets.push(withMarker);
      streetOpen = s.endedBy === "sep" || s.endedBy === "end";
    } else if (s.kind === "complex") setOnce(components, "complex", withMarker);
    else if (s.kind === "building") setOnce(components, "building", withMarker);
    else {
      if (s.marker === "kampung" || s.marker === "dusun") setOnce(components, "dusun", trimEnd(slice(w, s.from, s.to)));
      const region = regionSegment(w, s.from, s.to, s.marker, withMarker, s.part);
      if (region) regions.push(s.marker && wordsBefore(w, s.markerFrom) ? { ...region, afterWords: true } : region);
    }
  }
  const tail = regions.length === 0 ? streetTail(w, w.segments.at(-1)) : null;
  if (tail) regions.push(tail);
  if (streets.length) components.street = streets.join(", ");
  return { components, regions, streetOpen: streets.length > 0 && streetOpen };
}

/** Whether a word comes before token `i` in its comma-separated part. */
function wordsBefore(src: Source, i: number): boolean {
  for (let k = i - 1; k >= 0 && !src.toks[k].sep; k--) if (!src.toks[k].punct) return true;
  return false;
}

/**
 * Nothing but a street running to the end (`jl raya serang km 12 bitung jaya cikupa tangerang`):
 * the words after its name (after its last number, else after its first word) may be the regions
 * the writer did not set apart. Offered as a segment of their own, marked `fromStreet`.
 */
function streetTail(src: Source, last: Segment | undefined): RegionSegment | null {
  if (last?.kind !== "street" || last.endedBy !== "end") return null;
  let start = last.from + 1;
  for (let k = last.from; k < last.to; k++) if (isNumber(src.toks[k])) start = k + 1;
  const tail = start < last.to ? regionSegment(src, start, last.to, null, slice(src, start, last.to), last.part) : null;
  return tail ? { ...tail, fromStreet: true } : null;
}

function regionSegment(src: Source, from: number, to: number, marker: Marker | null, raw: string, part: number): RegionSegment | null {
  const named = src.toks.slice(from, to).filter((t) => !t.punct && t.w.replace(/^['`-]+|['`-]+$/g, ""));
  if (named.length === 0) return null;
  const words = named.map((t) => t.w.replace(/^['`-]+|['`-]+$/g, ""));
  const base = src.toks[from].start;
  const at = named.map((t): [number, number] => [t.start - base, t.end - base]);
  return { text: trimEnd(slice(src, from, to)), words, at, marker, level: marker ? LEVEL_OF[marker] : null, raw: raw, part };
}
