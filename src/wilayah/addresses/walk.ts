/**
 * What the address parser's walk over the tokens holds and how it cuts (moved from parse.ts): the
 * components a label gives, the codes written, the segments cut so far and the one being read, and
 * the few moves every reader makes (close the segment, open one, take a labelled value).
 */
import type { Marker, Tok } from "./lexicon.ts";

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

/**
 * A region code written in the address (`32.73.01.1001`, `3273011001`): of any edition, read through
 * the region history. `bps`: the same digits read as a BPS code (`3273190`, `3273190001`), which the
 * address service uses only when no edition holds `id` (a 7-digit `id` is never a Kemendagri code).
 */
export type WrittenCode = { text: string; id: string; bps?: string };

/** Tokens [from, to) the walk set apart as one street, complex, building, hamlet or region; its marker word at `markerFrom`. */
export type Segment = {
  kind: "street" | "complex" | "building" | "dusun" | "region";
  marker: Marker | null;
  markerFrom: number;
  from: number;
  to: number;
  part: number;
  endedBy: "sep" | "marker" | "number" | "end";
};

/** The text and its tokens, which segments point into. */
export type Source = { text: string; toks: Tok[] };

/** The walk over the tokens: the values labels gave, the codes, the segments cut so far and the one being read (`cur`). */
export type Walk = Source & { components: AddressComponents; codes: WrittenCode[]; segments: Segment[]; part: number; cur: Segment | null };

/** Reads what starts at token `i`: the index after it, or null when the token is not its kind. */
export type Reader = (w: Walk, i: number) => number | null;

export const noComponents = (): AddressComponents => ({
  street: null,
  house_number: null,
  rt: null,
  rw: null,
  block: null,
  building: null,
  complex: null,
  dusun: null,
  postal_code: null,
});

/** A segment's text without the punctuation that ends it (`Braga,`, `Kec. Coblong.`). */
export const trimEnd = (s: string) => s.replace(/[.,:;/]+$/, "");
export const slice = (src: Source, from: number, to: number) => src.text.slice(src.toks[from].start, src.toks[to - 1].end);

export function close(w: Walk, endedBy: Segment["endedBy"]): void {
  if (w.cur && w.cur.to > w.cur.from) w.segments.push({ ...w.cur, endedBy });
  w.cur = null;
}

export function open(w: Walk, kind: Segment["kind"], marker: Marker | null, markerFrom: number, from: number, to: number): Segment {
  return { kind, marker, markerFrom, from, to, part: w.part, endedBy: "end" };
}

export function setOnce(components: AddressComponents, key: keyof AddressComponents, value: string): void {
  if (components[key] === null) components[key] = value;
}

/** A value a label gave (a house number, a block, a postal code) ends the segment being read. */
export function take(w: Walk, key: keyof AddressComponents, value: string): void {
  close(w, "number");
  setOnce(w.components, key, value);
}
