/** Borders as pairs and the neighbour table's rows and SQL (moved from neighbours.ts). */
import { LEVELS, type Level } from "../../src/wilayah/codes.ts";
import { insertStatements } from "../lib.ts";
import type { Shapes } from "./shapes.ts";
import type { Pair } from "./shared-borders.ts";

/** The least shared length (mean of both sides) that makes a border rather than a touch. */
export const MIN_SHARED_M = 50;

export type NeighbourRow = { id: string; neighborId: string; level: number; sharedBorderKm: number };

/** The border of a pair: the mean of both sides' shared lengths. */
export const sharedKm = (p: Pair) => (p.ab + p.ba) / 2;

/** Pairs of ids (a < b, joined by a space) with their border in km. */
export type Borders = Map<string, number>;

export function bordersOf(s: Shapes, pairs: Pair[]): Borders {
  const out: Borders = new Map();
  for (const p of pairs) {
    const [a, b] = s.ids[p.a] < s.ids[p.b] ? [s.ids[p.a], s.ids[p.b]] : [s.ids[p.b], s.ids[p.a]];
    out.set(`${a} ${b}`, sharedKm(p));
  }
  return out;
}

/** The villages' borders summed per pair of their regions at a higher level (id prefixes of `len` characters). */
export function villageBordersAt(villages: Borders, len: number): Borders {
  const out: Borders = new Map();
  for (const [key, km] of villages) {
    const a = key.slice(0, len);
    const b = key.slice(key.indexOf(" ") + 1, key.indexOf(" ") + 1 + len);
    if (a === b) continue;
    const k = a < b ? `${a} ${b}` : `${b} ${a}`;
    out.set(k, (out.get(k) ?? 0) + km);
  }
  return out;
}

/** Table rows: both directions of every border that reaches `minSharedM`, sorted, lengths in km to 10 m. */
export function neighbourRows(level: Level, borders: Borders, minSharedM = MIN_SHARED_M): NeighbourRow[] {
  const n = LEVELS.indexOf(level) + 1;
  const rows: NeighbourRow[] = [];
  for (const [key, km] of borders) {
    if (km * 1000 < minSharedM) continue;
    const [a, b] = key.split(" ");
    const rounded = Math.round(km * 100) / 100;
    rows.push({ id: a, neighborId: b, level: n, sharedBorderKm: rounded }, { id: b, neighborId: a, level: n, sharedBorderKm: rounded });
  }
  return rows.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : x.neighborId < y.neighborId ? -1 : x.neighborId > y.neighborId ? 1 : 0));
}

/**
 * The borders of one higher level. Where both regions have every village drawn, the villages'
 * borders decide (the village file is the least simplified and nearly topological; the kecamatan
 * file has wrong shapes, e.g. 11.05.02 drawn as 6.9 km² where its villages cover 185 km²). Where
 * one of them has villages without a boundary, the level's own outlines fill in: the larger of the
 * two lengths, so a border is kept when either layer sees it.
 */
export function combineBorders(own: Borders, fromVillages: Borders, complete: (id: string) => boolean): Borders {
  const out: Borders = new Map();
  for (const [key, km] of fromVillages) out.set(key, km);
  for (const [key, km] of own) {
    const [a, b] = key.split(" ");
    if (complete(a) && complete(b)) continue;
    out.set(key, Math.max(km, out.get(key) ?? 0));
  }
  return out;
}
/** D1 caps a statement at 100 KB; the seed keeps its statements under 60 KB. */
const MAX_STATEMENT_BYTES = 50_000;

/** SQL replacing one level's neighbours (deterministic for a given source). */
export function neighbourSql(level: Level, rows: NeighbourRow[]): string {
  const n = LEVELS.indexOf(level) + 1;
  const tuples = rows.map((r) => `('${r.id}','${r.neighborId}',${r.level},${r.sharedBorderKm})`);
  return `DELETE FROM wilayah_neighbor WHERE level = ${n};\n${insertStatements("wilayah_neighbor", "id, neighbor_id, level, shared_border_km", tuples, MAX_STATEMENT_BYTES)}`;
}
