/**
 * The address parser's readers of what a label or a number gives (moved from parse.ts): RT/RW, the
 * house number, the block, the postal code, a form's field name, a building's floor, a street's
 * `Km 5`, and numbers (a region or BPS code, a postal code, a house number after a street). Each
 * takes the walk and a token index and answers the index after what it read, or null.
 */
import { bpsCodeOf, CODE_LABELS, isHouseNumber, isNumber, isPostal, MAX_CODES, regionCode, WORDS } from "./lexicon.ts";
import { close, setOnce, take, type Walk } from "./walk.ts";

export function readRtRwLabel(w: Walk, i: number): number | null {
  const word = w.toks[i].w;
  if (word !== "rt" && word !== "rw") return null;
  const next = readRtRw(w, i);
  if (next <= 0) return null;
  close(w, "number");
  return next;
}

/** Reads `RT 003 RW 002`, `RT 03/RW 02`, `RT/RW 003/002`, `RT 01/02` from `i` (at rt or rw); returns the next index, -1 when no number follows. */
function readRtRw(w: Walk, i: number): number {
  const { toks, components } = w;
  const first = toks[i].w;
  let j = i + 1;
  if (first === "rt" && toks[j]?.w === "/" && toks[j + 1]?.w === "rw") return readRtRwPair(w, j + 2);
  while (toks[j]?.punct && toks[j].w === ":") j++;
  if (!isNumber(toks[j])) return -1;
  setOnce(components, first === "rt" ? "rt" : "rw", toks[j].raw);
  j++;
  if (toks[j]?.w === "/") {
    if (first === "rt" && isNumber(toks[j + 1])) {
      setOnce(components, "rw", toks[j + 1].raw); // RT 01/02
      return j + 2;
    }
    if (toks[j + 1]?.w === "rw" || toks[j + 1]?.w === "rt") {
      const after = readRtRw(w, j + 1);
      return after > 0 ? after : j + 1;
    }
  }
  return j;
}

/** `RT/RW 003/002`: both labels (read up to `j`), then both numbers. */
function readRtRwPair(w: Walk, from: number): number {
  const { toks, components } = w;
  let j = from;
  while (toks[j]?.punct) j++;
  if (!isNumber(toks[j])) return j;
  setOnce(components, "rt", toks[j].raw);
  j++;
  if (toks[j]?.w !== "/" || !isNumber(toks[j + 1])) return j;
  setOnce(components, "rw", toks[j + 1].raw);
  return j + 2;
}

/** `No. 12`, `No. 5/7`, `Kav. 52-53`. */
export function readHouse(w: Walk, i: number): number | null {
  const { toks } = w;
  if (WORDS[toks[i].w]?.kind !== "house") return null;
  let j = i + 1;
  while (toks[j]?.punct && toks[j].w !== "/") j++;
  if (!isHouseNumber(toks[j])) return null;
  let value = toks[j].raw;
  let end = j + 1;
  if (toks[end]?.w === "/" && isNumber(toks[end + 1])) {
    value = w.text.slice(toks[j].start, toks[end + 1].end);
    end += 2;
  }
  take(w, "house_number", value.replace(/\.$/, ""));
  return end;
}

/** `Blok C2`, `Blok A/12` (a block and its house number). */
export function readBlock(w: Walk, i: number): number | null {
  const { toks } = w;
  const next = toks[i + 1];
  if (WORDS[toks[i].w]?.kind !== "block" || !next || next.sep || next.punct || WORDS[next.w]) return null;
  take(w, "block", next.raw.replace(/\.$/, ""));
  let j = i + 2;
  if (toks[j]?.w === "/" && isHouseNumber(toks[j + 1])) {
    setOnce(w.components, "house_number", toks[j + 1].raw);
    j += 2;
  }
  return j;
}

/** `Kode Pos 40111`, `Kd. Pos 40111` (a label of two words), `Kodepos: 40111` (of one). */
export function readPostalLabel(w: Walk, i: number): number | null {
  const { toks } = w;
  const t = toks[i];
  const label = (t.w === "kode" || t.w === "kd") && toks[i + 1]?.w === "pos" ? 2 : WORDS[t.w]?.kind === "postal" ? 1 : 0;
  if (!label) return null;
  let j = i + label;
  while (toks[j]?.punct) j++;
  if (!isPostal(toks[j])) return null;
  take(w, "postal_code", toks[j].raw);
  return j + 1;
}

/** A form's field name (`Alamat :`) says nothing of the address. */
export function skipFieldLabel(w: Walk, i: number): number | null {
  const { toks } = w;
  return WORDS[toks[i].w]?.kind === "label" && !w.cur && toks[i + 1]?.w === ":" ? i + 2 : null;
}

/** A floor (`Lt. 5`, `Lantai 5`) is its building's. */
export function readFloor(w: Walk, i: number): number | null {
  const { cur, toks } = w;
  const floor = toks[i].w === "lt" || toks[i].w === "lantai";
  if (!cur || (cur.kind !== "building" && cur.kind !== "complex") || !floor || !isNumber(toks[i + 1])) return null;
  cur.to = i + 2;
  return i + 2;
}

/** Inside a street: `Km 5` and `Gg. 3` are the street's, as is a second street word. */
export function readStreetPart(w: Walk, i: number): number | null {
  const { cur, toks } = w;
  const t = toks[i];
  if (cur?.kind !== "street" || (t.w !== "km" && t.w !== "kilometer" && WORDS[t.w]?.kind !== "street")) return null;
  cur.to = isNumber(toks[i + 1]) ? i + 2 : i + 1;
  return cur.to;
}

/**
 * A number: a region code, a postal code, a phone number or decimal (neither a region nor a house
 * number), a house number after a street. Elsewhere a short number stays in its segment: some
 * village names hold one (`Ramunia 1`).
 */
export function readNumber(w: Walk, i: number): number | null {
  const { cur, toks } = w;
  const t = toks[i];
  if (!isNumber(t)) return null;
  const code = regionCode(t.w);
  const bps = bpsCodeOf(t.w);
  if (code || bps) readCode(w, code ?? t.w, t.raw, bps);
  else if (isPostal(t)) take(w, "postal_code", t.raw);
  else if (t.w.length > 5 || /^\d+[.,]\d/.test(t.w)) close(w, "number");
  else if (cur && (cur.kind === "street" || cur.kind === "building" || cur.kind === "complex") && w.components.house_number === null)
    take(w, "house_number", t.raw);
  else return null;
  return i + 1;
}

/** A region code; its label words (`Kode Wilayah`) are no region: they leave the segment before it. */
function readCode(w: Walk, code: string, raw: string, bps: string | null): void {
  const { cur, toks } = w;
  if (cur?.kind === "region") {
    let to = cur.to;
    while (to > cur.from && (toks[to - 1].punct || (CODE_LABELS.has(toks[to - 1].w) && (to - 1 > cur.from || cur.marker === null)))) to--;
    cur.to = to;
  }
  close(w, "number");
  if (w.codes.length < MAX_CODES && !w.codes.some((c) => c.id === code)) w.codes.push({ text: raw, id: code, ...(bps ? { bps } : {}) });
}
