/**
 * How scripts/address-world.ts labels a school and checks its text against its point: names
 * compared after search normalisation with punctuation dropped and short forms expanded, by the
 * optimal-string-alignment edit distance (`closest`), the written parts of an address (`Kab.`,
 * `Kec.`, `Prov.`), and the kecamatan polygons holding a point (`polygonLocator`).
 */

import { editDistance } from "../src/wilayah/edits.ts";
import { normalizeSearchText } from "../src/wilayah/normalize.ts";
import type { WorldCase } from "./address-world-rates.ts";
import { SCALE, type Shapes } from "./seed/shapes.ts";

/** A name for comparison: search-normalised, initialisms joined (`d.k.i.` -> `dki`), other punctuation a space. */
export function nameKey(s: string): string {
  return normalizeSearchText(s)
    .replace(/\b([a-z])\.([a-z])\.(?:([a-z])\.)?/g, (_m, a: string, b: string, c: string | undefined) => `${a}${b}${c ?? ""} `)
    .replace(/['`]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Short forms of names, expanded by `formKey` (Roman numerals as the seed writes them: `Ilir Timur II` = `Ilir Timur Dua`). */
const SHORT_FORMS: Record<string, string> = {
  sei: "sungai",
  sel: "selatan",
  utr: "utara",
  tim: "timur",
  bar: "barat",
  tgh: "tengah",
  bt: "batu",
  kp: "kampung",
  bukik: "bukit",
  kep: "kepulauan",
  i: "satu",
  ii: "dua",
  iii: "tiga",
  iv: "empat",
};

/** A name key with its short forms expanded, a leading `kota` dropped and no spaces (`Sei Bingai` = `Sungaibingai`, `Kep. Sangihe` = `Kepulauan Sangihe`). */
export function formKey(key: string): string {
  return key
    .split(" ")
    .map((w) => SHORT_FORMS[w] ?? w)
    .join(" ")
    .replace(/^kota (?=\S)/, "")
    .replaceAll(" ", "");
}

const nameDistance = (a: string, b: string) => Math.min(editDistance(a, b), editDistance(formKey(a), formKey(b)));

export type Candidate = { id: string; keys: string[] };

/** The candidate closest to `written` (a name key): its id, or null on a tie or beyond max(3, 40% of the length) edits. */
export function closest(written: string, candidates: Candidate[]): { id: string | null; d: number } {
  let best = Number.POSITIVE_INFINITY;
  let bestIds: string[] = [];
  for (const c of candidates) {
    const d = Math.min(...c.keys.map((k) => nameDistance(written, k)));
    if (d < best) {
      best = d;
      bestIds = [c.id];
    } else if (d === best && !bestIds.includes(c.id)) bestIds.push(c.id);
  }
  if (bestIds.length !== 1 || best > Math.max(3, 0.4 * written.length)) return { id: null, d: best };
  return { id: bestIds[0], d: best };
}

export const KAB_PREFIX = /^\s*(?:kabupaten administrasi|kota administrasi|kabupaten|kab|kota)\b\.?\s*/i;

/** The written kabupaten/kota: its kind and its bare name; null kind when it has no prefix. */
export function writtenKabupaten(s: string): { kind: "kabupaten" | "kota" | null; name: string } {
  const m = /^\s*(kabupaten|kab|kota)\b\.?\s*/i.exec(s);
  if (!m) return { kind: null, name: s.trim() };
  return { kind: m[1].toLowerCase() === "kota" ? "kota" : "kabupaten", name: s.slice(m[0].length).trim() };
}

export const writtenKecamatan = (s: string) => s.replace(/^\s*(?:kecamatan|kec|kek)\b\.?\s*/i, "").trim();
export const writtenProvinsi = (s: string) => s.replace(/^\s*(?:provinsi|prov)\b\.?\s*/i, "").trim();

/** The written kecamatan against the label's name (see WorldCase.kec_form). */
export function kecForm(written: string, label: string): WorldCase["kec_form"] {
  const w = nameKey(written);
  const l = nameKey(label);
  if (w === l) return "exact";
  if (formKey(w) === formKey(l)) return "form";
  return Math.min(editDistance(w, l), editDistance(formKey(w), formKey(l))) <= 2 ? "typo" : "other";
}

/** A village or hamlet word in the street part. */
const VILLAGE_WORD = /\b(?:ds|desa|kel|kelurahan|dusun|dsn|dukuh|dk|kampung|kp|gampong|nagari|jorong|pekon|lingkungan|lingk)\b/i;
export const villageInStreet = (street: string) => VILLAGE_WORD.test(street);

// ---------------------------------------------------------------- points

/** Finds the polygons holding a point (1e-5 degrees): bbox prefilter on a grid of 0.25 degrees, even-odd over all rings. */
export function polygonLocator(s: Shapes): (x: number, y: number) => string[] {
  const n = s.ids.length;
  const box = new Int32Array(4 * n);
  const CELL = 0.25 * SCALE;
  const grid = new Map<number, number[]>();
  const cell = (cx: number, cy: number) => cx * 100_000 + cy;
  for (let i = 0; i < n; i++) {
    let [x0, y0, x1, y1] = [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
    for (let r = s.ringStart[i]; r < s.ringStart[i + 1]; r++)
      for (let p = s.pointStart[r]; p < s.pointStart[r + 1]; p++) {
        x0 = Math.min(x0, s.xs[p]);
        x1 = Math.max(x1, s.xs[p]);
        y0 = Math.min(y0, s.ys[p]);
        y1 = Math.max(y1, s.ys[p]);
      }
    box.set([x0, y0, x1, y1], 4 * i);
    if (x0 > x1) continue;
    for (let cx = Math.floor(x0 / CELL); cx <= Math.floor(x1 / CELL); cx++)
      for (let cy = Math.floor(y0 / CELL); cy <= Math.floor(y1 / CELL); cy++) {
        const k = cell(cx, cy);
        const list = grid.get(k);
        if (list) list.push(i);
        else grid.set(k, [i]);
      }
  }
  const inside = (i: number, x: number, y: number) => {
    let c = false;
    for (let r = s.ringStart[i]; r < s.ringStart[i + 1]; r++) {
      const end = s.pointStart[r + 1];
      for (let j = s.pointStart[r], k = end - 1; j < end; k = j++) {
        const yj = s.ys[j];
        const yk = s.ys[k];
        if (yj > y !== yk > y && x < ((s.xs[k] - s.xs[j]) * (y - yj)) / (yk - yj) + s.xs[j]) c = !c;
      }
    }
    return c;
  };
  return (x, y) =>
    (grid.get(cell(Math.floor(x / CELL), Math.floor(y / CELL))) ?? [])
      .filter((i) => box[4 * i] <= x && x <= box[4 * i + 2] && box[4 * i + 1] <= y && y <= box[4 * i + 3] && inside(i, x, y))
      .map((i) => s.ids[i]);
}
