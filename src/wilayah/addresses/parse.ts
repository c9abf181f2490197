/**
 * Reads a free-text Indonesian address into its parts (issue 24). Pure: no data, no I/O, so the
 * Worker and the scripts share it (it imports only ../codes.ts and its lexicon, ./lexicon.ts).
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
 * `Kel. Kota Baru`, `Desa Dusun Tua`). A bare number after a street is its house number; five
 * digits that no `No.`, `RT`, `RW`, `Blok` or `Km` claimed are the postal code.
 */
import type { Level } from "../codes.ts";
import {
  ADMINISTRATIVE,
  CODE_LABELS,
  isHouseNumber,
  isNumber,
  isPostal,
  LEVEL_OF,
  MAX_CODES,
  type Marker,
  regionCode,
  tokenize,
  WEAK,
  WORDS,
} from "./lexicon.ts";

export type AddressComponents = {
  street: string | null;
  house_number: string | null;
  rt: string | null;
  rw: string | null;
  block: string | null;
  building: string | null;
  complex: string | null;
  dusun: string | null;
  postal_code: string | null;
};

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
};

/** A region code written in the address (`32.73.01.1001`, `3273011001`): of any edition, read through the region history. */
export type WrittenCode = { text: string; id: string };

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

type Segment = {
  kind: "street" | "complex" | "building" | "dusun" | "region";
  marker: Marker | null;
  markerFrom: number;
  from: number;
  to: number;
  part: number;
  endedBy: "sep" | "marker" | "number" | "end";
};

/** A segment's text without the punctuation that ends it (`Braga,`, `Kec. Coblong.`). */
const trimEnd = (s: string) => s.replace(/[.,:;/]+$/, "");

export function parseAddress(text: string): ParsedAddress {
  const toks = tokenize(text);
  const components: AddressComponents = {
    street: null,
    house_number: null,
    rt: null,
    rw: null,
    block: null,
    building: null,
    complex: null,
    dusun: null,
    postal_code: null,
  };
  const segments: Segment[] = [];
  const codes: WrittenCode[] = [];
  let part = 0;
  let cur: Segment | null = null;
  const close = (endedBy: Segment["endedBy"]) => {
    if (cur && cur.to > cur.from) segments.push({ ...cur, endedBy });
    cur = null;
  };
  const setOnce = (key: keyof AddressComponents, value: string) => {
    if (components[key] === null) components[key] = value;
  };
  // A value a label gave (a house number, a block, a postal code) ends the segment being read.
  const take = (key: keyof AddressComponents, value: string) => {
    close("number");
    setOnce(key, value);
  };
  const open = (kind: Segment["kind"], marker: Marker | null, markerFrom: number, from: number, to: number): Segment => ({
    kind,
    marker,
    markerFrom,
    from,
    to,
    part,
    endedBy: "end",
  });
  const slice = (from: number, to: number) => text.slice(toks[from].start, toks[to - 1].end);

  /** Reads `RT 003 RW 002`, `RT 03/RW 02`, `RT/RW 003/002`, `RT 01/02` from `i` (at rt or rw); returns the next index. */
  const readRtRw = (i: number): number => {
    let j = i;
    const first = toks[j].w;
    j++;
    // `RT/RW 003/002`: both labels, then both numbers.
    if (first === "rt" && toks[j]?.w === "/" && toks[j + 1]?.w === "rw") {
      j += 2;
      while (toks[j]?.punct) j++;
      if (isNumber(toks[j])) {
        setOnce("rt", toks[j].raw);
        j++;
        if (toks[j]?.w === "/" && isNumber(toks[j + 1])) {
          setOnce("rw", toks[j + 1].raw);
          j += 2;
        }
      }
      return j;
    }
    while (toks[j]?.punct && toks[j].w === ":") j++;
    if (!isNumber(toks[j])) return -1;
    setOnce(first === "rt" ? "rt" : "rw", toks[j].raw);
    j++;
    if (toks[j]?.w === "/") {
      if (first === "rt" && isNumber(toks[j + 1])) {
        setOnce("rw", toks[j + 1].raw); // RT 01/02
        return j + 2;
      }
      if (toks[j + 1]?.w === "rw" || toks[j + 1]?.w === "rt") {
        const after = readRtRw(j + 1);
        return after > 0 ? after : j + 1;
      }
    }
    return j;
  };

  let i = 0;
  while (i < toks.length) {
    const t = toks[i];
    if (t.sep) {
      close("sep");
      part++;
      i++;
      continue;
    }
    if (t.punct) {
      i++;
      continue;
    }
    const entry = WORDS[t.w];
    // The word right after a marker is name text (`Jl. Kota Baru`, `Kel. Kota Baru`).
    const firstAfterMarker = cur !== null && cur.from === cur.to && cur.from === i;

    if (!firstAfterMarker && (t.w === "rt" || t.w === "rw")) {
      const next = readRtRw(i);
      if (next > 0) {
        close("number");
        i = next;
        continue;
      }
    }
    if (!firstAfterMarker && entry?.kind === "house") {
      let j = i + 1;
      while (toks[j]?.punct && toks[j].w !== "/") j++;
      if (isHouseNumber(toks[j])) {
        let value = toks[j].raw;
        let end = j + 1;
        if (toks[end]?.w === "/" && isNumber(toks[end + 1])) {
          value = text.slice(toks[j].start, toks[end + 1].end);
          end += 2;
        }
        take("house_number", value.replace(/\.$/, ""));
        i = end;
        continue;
      }
    }
    if (!firstAfterMarker && entry?.kind === "block") {
      const next = toks[i + 1];
      if (next && !next.sep && !next.punct && !WORDS[next.w]) {
        take("block", next.raw.replace(/\.$/, ""));
        let j = i + 2;
        if (toks[j]?.w === "/" && isHouseNumber(toks[j + 1])) {
          setOnce("house_number", toks[j + 1].raw);
          j += 2;
        }
        i = j;
        continue;
      }
    }
    // `Kode Pos 40111`, `Kd. Pos 40111` (a label of two words), `Kodepos: 40111` (of one).
    const postalLabel = (t.w === "kode" || t.w === "kd") && toks[i + 1]?.w === "pos" ? 2 : entry?.kind === "postal" ? 1 : 0;
    if (postalLabel) {
      let j = i + postalLabel;
      while (toks[j]?.punct) j++;
      if (isPostal(toks[j])) {
        take("postal_code", toks[j].raw);
        i = j + 1;
        continue;
      }
    }
    if (entry?.kind === "label" && !cur && toks[i + 1]?.w === ":") {
      i += 2;
      continue;
    }

    // A floor (`Lt. 5`, `Lantai 5`) is its building's.
    if ((cur?.kind === "building" || cur?.kind === "complex") && (t.w === "lt" || t.w === "lantai") && isNumber(toks[i + 1]) && !firstAfterMarker) {
      cur.to = i + 2;
      i += 2;
      continue;
    }
    // Inside a street: `Km 5` and `Gg. 3` are the street's, as is a second street word.
    if (cur?.kind === "street") {
      if ((t.w === "km" || t.w === "kilometer" || entry?.kind === "street") && !firstAfterMarker) {
        cur.to = i + 1;
        if (isNumber(toks[i + 1])) cur.to = i + 2;
        i = cur.to;
        continue;
      }
    }

    if (isNumber(t) && !firstAfterMarker) {
      const code = regionCode(t.w);
      if (code) {
        // Its label words (`Kode Wilayah`) are no region: they leave the segment before it.
        if (cur?.kind === "region") {
          let to = cur.to;
          while (to > cur.from && (toks[to - 1].punct || (CODE_LABELS.has(toks[to - 1].w) && (to - 1 > cur.from || cur.marker === null)))) to--;
          cur.to = to;
        }
        close("number");
        if (codes.length < MAX_CODES && !codes.some((c) => c.id === code)) codes.push({ text: t.raw, id: code });
        i++;
        continue;
      }
      if (isPostal(t)) {
        take("postal_code", t.raw);
        i++;
        continue;
      }
      if (t.w.length > 5 || /^\d+[.,]\d/.test(t.w)) {
        // A phone number or a decimal outside a street: neither a region nor a house number.
        close("number");
        i++;
        continue;
      }
      if (cur && (cur.kind === "street" || cur.kind === "building" || cur.kind === "complex") && components.house_number === null) {
        take("house_number", t.raw);
        i++;
        continue;
      }
      // Elsewhere a short number stays in its segment: some village names hold one (`Ramunia 1`).
    }

    // Building words are common in village names (`Belakang Gedung`, `Gedung Rejo`): inside a
    // region segment they are name words; a building starts a segment of its own.
    // In a complex's or building's name `Kota` is a word of it (`Perum Lima Puluh Kota Indah`).
    const inName =
      ((entry?.kind === "building" || WEAK.has(t.w)) && cur?.kind === "region" && cur.to > cur.from) ||
      (t.w === "kota" && (cur?.kind === "complex" || cur?.kind === "building") && cur.to > cur.from);
    if (
      entry &&
      !firstAfterMarker &&
      !inName &&
      (entry.kind === "street" || entry.kind === "complex" || entry.kind === "building" || entry.kind === "dusun" || entry.kind === "region")
    ) {
      // A level word with no name after it (at the end, before a comma, a number or a street, house,
      // RT or block word) is a word of the segment before it: `Bandung Kota` may mean Kota Bandung,
      // some names end with such a word (`Menggala Kota`, `Gg. Ampana Kota No. 60`); the resolver reads both.
      const next = toks[i + 1];
      const nextKind = next ? WORDS[next.w]?.kind : undefined;
      // A kecamatan's name may start with a number (`Kec. 2 x 11 Anam Lingkuang`, Padang Pariaman) when words follow it.
      const after = toks[i + 2];
      const numberedName = entry.marker === "kec" && isNumber(next) && !!after && !after.sep && !after.punct;
      const nameFollows =
        next &&
        !next.sep &&
        (!isNumber(next) || numberedName) &&
        nextKind !== "house" &&
        nextKind !== "rt" &&
        nextKind !== "rw" &&
        nextKind !== "block" &&
        nextKind !== "street";
      if (entry.kind === "region" && !nameFollows) {
        if (cur && cur.to === i) {
          cur.to = i + 1;
          i++;
          continue;
        }
        if (!cur && WEAK.has(t.w)) {
          // Alone in its part (`Dukuh, Kec. Delanggu`): a name (villages are called Dukuh).
          cur = open("region", null, i, i, i + 1);
        }
        i++;
        continue;
      }
      close("marker");
      let from = i + 1;
      let marker = entry.marker ?? null;
      // `Kel/Desa`, `Desa/Kel.`, `Kab/Kota`: KTP labels naming either kind.
      const other = toks[from]?.w === "/" ? WORDS[toks[from + 1]?.w] : undefined;
      if (entry.kind === "region" && other?.kind === "region" && other.marker) {
        const pair = [marker, other.marker].sort().join("/");
        marker = pair === "desa/kel" ? "kel/desa" : pair === "kab/kota" ? "kab/kota" : marker;
        from += 2;
      }
      while (toks[from]?.punct && toks[from].w === ":") from++;
      if ((marker === "kota" || marker === "kab" || marker === "kotamadya") && ADMINISTRATIVE.has(toks[from]?.w ?? "")) from++;
      cur = open(entry.kind, marker, i, from, from);
      i = from;
      continue;
    }
    // `Indonesia` as a segment of its own; inside one it may be a name's (`Jambur Indonesia`).
    if (entry?.kind === "country" && !cur && (i + 1 >= toks.length || toks[i + 1].sep || isPostal(toks[i + 1]))) {
      close("marker");
      i++;
      continue;
    }

    // Name text: extends the current segment, or starts an unmarked region segment.
    if (!cur) cur = open("region", null, i, i, i);
    cur.to = i + 1;
    i++;
  }
  close("end");

  const regions: RegionSegment[] = [];
  const streets: string[] = [];
  let streetOpen = false;
  for (const s of segments) {
    const value = trimEnd(slice(s.from, s.to));
    const withMarker = trimEnd(slice(s.markerFrom, s.to));
    if (s.kind === "street") {
      streets.push(withMarker);
      streetOpen = s.endedBy === "sep" || s.endedBy === "end";
    } else if (s.kind === "complex") setOnce("complex", withMarker);
    else if (s.kind === "building") setOnce("building", withMarker);
    else {
      if (s.marker === "kampung" || s.marker === "dusun") setOnce("dusun", value);
      const region = regionSegment(s.from, s.to, s.marker, withMarker, s.part);
      if (region) regions.push(region);
    }
  }
  // Nothing but a street running to the end (`jl raya serang km 12 bitung jaya cikupa tangerang`):
  // the words after its name (after its last number, else after its first word) may be the regions
  // the writer did not set apart. Offered as a segment of their own, marked `fromStreet`.
  const last = segments.at(-1);
  if (regions.length === 0 && last?.kind === "street" && last.endedBy === "end") {
    let start = last.from + 1;
    for (let k = last.from; k < last.to; k++) if (isNumber(toks[k])) start = k + 1;
    const tail = start < last.to ? regionSegment(start, last.to, null, slice(start, last.to), last.part) : null;
    if (tail) regions.push({ ...tail, fromStreet: true });
  }
  if (streets.length) components.street = streets.join(", ");
  return { components, regions, codes, streetOpen: streets.length > 0 && streetOpen };

  function regionSegment(from: number, to: number, marker: Marker | null, raw: string, part: number): RegionSegment | null {
    const named = toks.slice(from, to).filter((t) => !t.punct && t.w.replace(/^['`-]+|['`-]+$/g, ""));
    if (named.length === 0) return null;
    const words = named.map((t) => t.w.replace(/^['`-]+|['`-]+$/g, ""));
    const base = toks[from].start;
    const at = named.map((t): [number, number] => [t.start - base, t.end - base]);
    return { text: trimEnd(slice(from, to)), words, at, marker, level: marker ? LEVEL_OF[marker] : null, raw: raw, part };
  }
}
