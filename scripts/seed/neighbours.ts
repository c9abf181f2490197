/**
 * Neighbours: the pairs of regions of one level whose boundaries share a border, with the length of
 * that border (`shared_border_km`), computed from seed/sources/wilayah-boundaries-<level>.csv.gz.
 *
 *   node scripts/boot.mjs node scripts/seed/neighbours.ts [--out FILE.sql]     # all four levels: summary
 *   node scripts/boot.mjs node scripts/seed/neighbours.ts --sweep [--histogram] --level kecamatan
 *   node scripts/boot.mjs node scripts/seed/neighbours.ts --crosscheck          # each level's outlines vs its villages
 *
 * Method (docs/neighbours-method.md has the measurements behind every number). The source draws
 * every region on its own and simplified each outline on its own, so two regions that share a
 * border rarely share vertices: their outlines cross, leaving slivers and gaps (about 10 m between
 * villages, up to 300-500 m between the more simplified kecamatan). A piece of A's outline is
 * shared with B when B's outline is the nearest other one and lies within the tolerance; the
 * border is the mean of what A shares with B and B with A (great-circle km), and A and B are
 * neighbours when it reaches MIN_SHARED_M (less cannot be told from two corners touching).
 * Villages use VILLAGE_TOLERANCE_M. Kecamatan, kabupaten/kota and provinsi take the sum of their
 * villages' borders (the least simplified, most consistent layer); only where a region has villages
 * without a boundary do their own outlines (OUTLINE_TOLERANCE_M) add what the villages cannot show.
 * No strait between islands of different regions is as narrow as the tolerance, so islands
 * separated by sea are not neighbours.
 *
 * The segments go into a hash grid (a sorted array of cell and segment keys, so the kelurahan
 * file's 8.7 M points need no object per point), and one pass over the segments looks up the cells
 * around each.
 */
import { createReadStream, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createGunzip } from "node:zlib";
import { LEVELS, type Level } from "../../src/wilayah/codes.ts";
import { insertStatements, isMain } from "../lib.ts";
import { boundarySource, SOURCES } from "./boundary-sql.ts";

/** Village outlines within this distance of each other are shared (see the file comment). */
export const VILLAGE_TOLERANCE_M = 30;
/** The same for the outlines of provinsi, kabupaten/kota and kecamatan, more simplified. */
export const OUTLINE_TOLERANCE_M = 100;
/** The least shared length (mean of both sides) that makes a border rather than a touch. */
export const MIN_SHARED_M = 50;

const SCALE = 1e5; // coordinates are integers in 1e-5 degrees (the source's precision)
const M_PER_DEG = 111_320; // metres per degree of latitude (and of longitude at the equator)
const EARTH_KM = 6371.0088; // mean Earth radius (IUGG)

/** All boundaries of one level, flat: region i has rings ringStart[i]..ringStart[i+1]-1; ring r has points pointStart[r]..pointStart[r+1]-1 (closed). */
export type Shapes = {
  ids: string[];
  ringStart: Int32Array;
  pointStart: Int32Array;
  xs: Int32Array;
  ys: Int32Array;
};

/** A growable Int32Array. */
class IntList {
  a = new Int32Array(1 << 16);
  n = 0;
  push(v: number) {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  done(): Int32Array {
    return this.a.slice(0, this.n);
  }
}

/**
 * Streams a `code,polygon` CSV (gzip) into flat arrays without building a JSON value per point (the
 * kelurahan file has 8.7 M points). Coordinates must have at most 5 decimals, as the source states.
 */
export async function readShapes(file: string): Promise<Shapes> {
  const ids: string[] = [];
  const ringStart = new IntList();
  const pointStart = new IntList();
  const xs = new IntList();
  const ys = new IntList();
  let line = 1;
  let header = true;
  let inCode = true;
  let code = "";
  let depth = 0;
  // number being read: sign, digits, decimals after the point (-1: no point yet)
  let numActive = false;
  let neg = false;
  let mant = 0;
  let decimals = -1;
  const coord: number[] = [];
  const endNumber = () => {
    if (!numActive) return;
    if (decimals > 5) throw new Error(`${file}: line ${line}: more than 5 decimals`);
    let v = mant * 10 ** (5 - Math.max(decimals, 0));
    if (neg) v = -v;
    coord.push(v);
    numActive = false;
  };
  for await (const chunk of createReadStream(file).pipe(createGunzip()) as AsyncIterable<Buffer>) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === 10) {
        // end of line
        if (!header && !inCode && depth !== 0) throw new Error(`${file}: line ${line}: polygon not closed`);
        line++;
        header = false;
        inCode = true;
        code = "";
        continue;
      }
      if (header) continue;
      if (inCode) {
        if (c === 44) {
          inCode = false;
          ids.push(code);
          ringStart.push(pointStart.n);
        } else if (c !== 13) code += String.fromCharCode(c);
        continue;
      }
      if (c >= 48 && c <= 57) {
        if (!numActive) {
          numActive = true;
          neg = false;
          mant = 0;
          decimals = -1;
        }
        mant = mant * 10 + (c - 48);
        if (decimals >= 0) decimals++;
      } else if (c === 45) {
        numActive = true;
        neg = true;
        mant = 0;
        decimals = -1;
      } else if (c === 46) {
        decimals = 0;
      } else if (c === 91) {
        depth++;
        if (depth === 2) pointStart.push(xs.n);
      } else if (c === 93) {
        endNumber();
        if (depth === 3) {
          if (coord.length !== 2) throw new Error(`${file}: line ${line}: a point needs 2 numbers`);
          xs.push(coord[0]);
          ys.push(coord[1]);
          coord.length = 0;
        }
        depth--;
      } else if (c === 44) {
        endNumber();
      } else if (c !== 34 && c !== 13 && c !== 32) {
        throw new Error(`${file}: line ${line}: unexpected character ${String.fromCharCode(c)}`);
      }
    }
  }
  ringStart.push(pointStart.n);
  pointStart.push(xs.n);
  return { ids, ringStart: ringStart.done(), pointStart: pointStart.done(), xs: xs.done(), ys: ys.done() };
}

export const readLevelShapes = (level: Level) => readShapes(boundarySource(level));

/** Great-circle distance in km between two points given in 1e-5 degrees. */
export function haversineKm(x1: number, y1: number, x2: number, y2: number): number {
  const r = Math.PI / 180 / SCALE;
  const la1 = y1 * r;
  const la2 = y2 * r;
  const dLat = la2 - la1;
  const dLng = (x2 - x1) * r;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(la1) * Math.cos(la2) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export type Pair = {
  /** indexes into Shapes.ids, a < b */
  a: number;
  b: number;
  /** great-circle km of A's outline within the tolerance of B's, and the reverse */
  ab: number;
  ba: number;
};

/**
 * The part [lo, hi] of the segment t -> t*(dx, dy), t in 0..1, that lies within d of the segment
 * q0-q1 (all in metres, relative to the first segment's start); `out` receives it, false when none.
 * The points within d of a segment form a capsule (convex), so the part is one interval: the hull
 * of the parts inside the two end discs and the rectangle between them.
 */
export function capsuleInterval(dx: number, dy: number, q0x: number, q0y: number, q1x: number, q1y: number, d: number, out: Float64Array): boolean {
  let lo = Infinity;
  let hi = -Infinity;
  const dd = dx * dx + dy * dy;
  // the two discs
  for (let k = 0; k < 2; k++) {
    const qx = k ? q1x : q0x;
    const qy = k ? q1y : q0y;
    const dq = dx * qx + dy * qy;
    const disc = dq * dq - dd * (qx * qx + qy * qy - d * d);
    if (disc >= 0) {
      const s = Math.sqrt(disc);
      const t0 = (dq - s) / dd;
      const t1 = (dq + s) / dd;
      if (t0 < lo) lo = t0;
      if (t1 > hi) hi = t1;
    }
  }
  // the rectangle: 0 <= u.(P - q0) <= len and |n.(P - q0)| <= d
  const ex = q1x - q0x;
  const ey = q1y - q0y;
  const len = Math.hypot(ex, ey);
  if (len > 0) {
    const ux = ex / len;
    const uy = ey / len;
    let t0 = -Infinity;
    let t1 = Infinity;
    // along: a*t + b in [0, len]
    const clip = (a: number, b: number, min: number, max: number) => {
      if (a === 0) {
        if (b < min || b > max) {
          t0 = Infinity;
          t1 = -Infinity;
        }
        return;
      }
      let ta = (min - b) / a;
      let tb = (max - b) / a;
      if (ta > tb) [ta, tb] = [tb, ta];
      if (ta > t0) t0 = ta;
      if (tb < t1) t1 = tb;
    };
    clip(ux * dx + uy * dy, -(ux * q0x + uy * q0y), 0, len);
    clip(-uy * dx + ux * dy, -(-uy * q0x + ux * q0y), -d, d);
    if (t0 <= t1) {
      if (t0 < lo) lo = t0;
      if (t1 > hi) hi = t1;
    }
  }
  if (lo < 0) lo = 0;
  if (hi > 1) hi = 1;
  if (lo > hi) return false;
  out[0] = lo;
  out[1] = hi;
  return true;
}

/** Cell size (degrees) of the segment hash per level: a few typical segment lengths. */
export const CELL_DEG: Record<Level, number> = { provinsi: 0.05, kabupaten: 0.05, kecamatan: 0.02, kelurahan: 0.01 };

const SEG_BITS = 2 ** 24;

/** Where several regions are near one segment, it is cut into pieces of at most this length, each attributed to the nearest. */
export const STEP_M = 10;

/** Attributed km by distance to the nearest other outline: km[b] for distances up to edges[b] (the last: beyond). */
export type Histogram = { edges: number[]; km: Float64Array };

/**
 * For every pair of regions whose outlines come within `toleranceM` of each other, the length of
 * each one's outline that does (see the file comment). Pairs with ab or ba above 0 are returned;
 * `neighbourRows` applies the border threshold.
 */
export function sharedLengths(s: Shapes, toleranceM: number, cellDeg: number, opts: { stepM?: number; histogram?: Histogram } = {}): Pair[] {
  const { xs, ys, pointStart, ringStart } = s;
  const nPoints = xs.length;
  if (nPoints >= SEG_BITS) throw new Error("too many points for the segment key");
  const nRegions = s.ids.length;
  // region of each ring, and of each segment (a segment i runs from point i to i+1 of one ring)
  const ringRegion = new Int32Array(pointStart.length - 1);
  for (let g = 0; g < nRegions; g++) for (let r = ringStart[g]; r < ringStart[g + 1]; r++) ringRegion[r] = g;
  const segRegion = new Int32Array(nPoints).fill(-1);
  for (let r = 0; r < ringRegion.length; r++) for (let i = pointStart[r]; i < pointStart[r + 1] - 1; i++) segRegion[i] = ringRegion[r];

  const cell = cellDeg * SCALE;
  const X0 = 94 * SCALE;
  const Y0 = -12 * SCALE;
  const NX = Math.ceil((48 * SCALE) / cell) + 1;
  const cx = (x: number) => Math.floor((x - X0) / cell);
  const cy = (y: number) => Math.floor((y - Y0) / cell);
  // keys (cell * 2^24 + segment), one per cell a segment's box touches, sorted: a CSR grid
  let nKeys = 0;
  for (let i = 0; i < nPoints; i++) {
    if (segRegion[i] < 0) continue;
    const a = cx(Math.min(xs[i], xs[i + 1]));
    const b = cx(Math.max(xs[i], xs[i + 1]));
    const c = cy(Math.min(ys[i], ys[i + 1]));
    const e = cy(Math.max(ys[i], ys[i + 1]));
    nKeys += (b - a + 1) * (e - c + 1);
  }
  const keys = new Float64Array(nKeys);
  let k = 0;
  for (let i = 0; i < nPoints; i++) {
    if (segRegion[i] < 0) continue;
    const a = cx(Math.min(xs[i], xs[i + 1]));
    const b = cx(Math.max(xs[i], xs[i + 1]));
    const c = cy(Math.min(ys[i], ys[i + 1]));
    const e = cy(Math.max(ys[i], ys[i + 1]));
    for (let row = c; row <= e; row++) for (let col = a; col <= b; col++) keys[k++] = (row * NX + col) * SEG_BITS + i;
  }
  keys.sort();
  // first key index of a cell, by binary search
  const firstOf = (cellKey: number) => {
    const target = cellKey * SEG_BITS;
    let lo = 0;
    let hi = nKeys;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const seen = new Int32Array(nPoints).fill(-1);
  const lengths = new Map<number, number>(); // a * 2^17 + b -> km of a's outline attributed to b
  const REGION_BITS = 2 ** 17;
  if (nRegions >= REGION_BITS) throw new Error("too many regions for the pair key");
  const add = (g: number, h: number, km: number) => {
    const key = g * REGION_BITS + h;
    lengths.set(key, (lengths.get(key) ?? 0) + km);
  };
  const dUnits = (toleranceM * SCALE) / M_PER_DEG; // the tolerance in 1e-5 degrees of latitude
  const stepM = opts.stepM ?? STEP_M;
  const hist = opts.histogram;
  // candidates of the current segment: region, the part within the tolerance, the candidate segment in metres
  let cap = 64;
  let candRegion = new Int32Array(cap);
  let cand = new Float64Array(cap * 6); // lo, hi, q0x, q0y, q1x, q1y
  const iv = new Float64Array(2);

  for (let i = 0; i < nPoints; i++) {
    const g = segRegion[i];
    if (g < 0) continue;
    const x1 = xs[i];
    const y1 = ys[i];
    const x2 = xs[i + 1];
    const y2 = ys[i + 1];
    const kx = Math.cos(((y1 + y2) / 2 / SCALE) * (Math.PI / 180)); // shorter degrees of longitude
    const mx = (M_PER_DEG / SCALE) * kx; // metres per x unit
    const my = M_PER_DEG / SCALE;
    const dxUnits = dUnits / kx;
    const minX = Math.min(x1, x2) - dxUnits;
    const maxX = Math.max(x1, x2) + dxUnits;
    const minY = Math.min(y1, y2) - dUnits;
    const maxY = Math.max(y1, y2) + dUnits;
    const dx = (x2 - x1) * mx;
    const dy = (y2 - y1) * my;
    let n = 0;
    let single = true;
    for (let row = cy(minY); row <= cy(maxY); row++) {
      const end = (row * NX + cx(maxX) + 1) * SEG_BITS;
      for (let at = firstOf(row * NX + cx(minX)); at < nKeys && keys[at] < end; at++) {
        const j = keys[at] % SEG_BITS;
        const h = segRegion[j];
        if (h === g || seen[j] === i) continue;
        seen[j] = i;
        const qx1 = xs[j];
        const qy1 = ys[j];
        const qx2 = xs[j + 1];
        const qy2 = ys[j + 1];
        if (Math.max(qx1, qx2) < minX || Math.min(qx1, qx2) > maxX || Math.max(qy1, qy2) < minY || Math.min(qy1, qy2) > maxY) continue;
        const q0x = (qx1 - x1) * mx;
        const q0y = (qy1 - y1) * my;
        const q1x = (qx2 - x1) * mx;
        const q1y = (qy2 - y1) * my;
        if (!capsuleInterval(dx, dy, q0x, q0y, q1x, q1y, toleranceM, iv)) continue;
        if (n === cap) {
          cap *= 2;
          const r = new Int32Array(cap);
          r.set(candRegion);
          candRegion = r;
          const c = new Float64Array(cap * 6);
          c.set(cand);
          cand = c;
        }
        if (n > 0 && h !== candRegion[0]) single = false;
        candRegion[n] = h;
        const o = n * 6;
        cand[o] = iv[0];
        cand[o + 1] = iv[1];
        cand[o + 2] = q0x;
        cand[o + 3] = q0y;
        cand[o + 4] = q1x;
        cand[o + 5] = q1y;
        n++;
      }
    }
    if (n === 0) continue;
    const segKm = haversineKm(x1, y1, x2, y2);
    if (single && !hist) {
      // One region near: its share is the union of the candidates' intervals (exact).
      let covered = 0;
      // insertion sort of the intervals by lo: n is small
      for (let p = 1; p < n; p++) {
        const lo = cand[p * 6];
        const hi = cand[p * 6 + 1];
        let q = p - 1;
        while (q >= 0 && cand[q * 6] > lo) {
          cand[(q + 1) * 6] = cand[q * 6];
          cand[(q + 1) * 6 + 1] = cand[q * 6 + 1];
          q--;
        }
        cand[(q + 1) * 6] = lo;
        cand[(q + 1) * 6 + 1] = hi;
      }
      let lo = cand[0];
      let hi = cand[1];
      for (let p = 1; p < n; p++) {
        if (cand[p * 6] > hi) {
          covered += hi - lo;
          lo = cand[p * 6];
          hi = cand[p * 6 + 1];
        } else if (cand[p * 6 + 1] > hi) hi = cand[p * 6 + 1];
      }
      covered += hi - lo;
      add(g, candRegion[0], covered * segKm);
      continue;
    }
    // Several regions near (a tripoint, a corner, a sliver): each piece of the segment goes to the
    // region whose outline is nearest, if within the tolerance.
    const pieces = Math.max(1, Math.ceil((segKm * 1000) / stepM));
    const pieceKm = segKm / pieces;
    for (let p = 0; p < pieces; p++) {
      const t = (p + 0.5) / pieces;
      const px = t * dx;
      const py = t * dy;
      let best = Infinity;
      let bestRegion = -1;
      for (let c = 0; c < n; c++) {
        const o = c * 6;
        const ax = px - cand[o + 2];
        const ay = py - cand[o + 3];
        const ex = cand[o + 4] - cand[o + 2];
        const ey = cand[o + 5] - cand[o + 3];
        const l2 = ex * ex + ey * ey;
        const u = l2 > 0 ? Math.max(0, Math.min(1, (ax * ex + ay * ey) / l2)) : 0;
        const d2 = (ax - u * ex) ** 2 + (ay - u * ey) ** 2;
        if (d2 < best) {
          best = d2;
          bestRegion = candRegion[c];
        }
      }
      const dist = Math.sqrt(best);
      if (dist > toleranceM) continue;
      add(g, bestRegion, pieceKm);
      if (hist) {
        let b = 0;
        while (b < hist.edges.length && dist > hist.edges[b]) b++;
        hist.km[b] += pieceKm;
      }
    }
  }

  const pairs = new Map<number, Pair>();
  for (const [key, km] of lengths) {
    const g = Math.floor(key / REGION_BITS);
    const h = key % REGION_BITS;
    const a = Math.min(g, h);
    const b = Math.max(g, h);
    const pk = a * REGION_BITS + b;
    let pair = pairs.get(pk);
    if (!pair) {
      pair = { a, b, ab: 0, ba: 0 };
      pairs.set(pk, pair);
    }
    if (g === a) pair.ab += km;
    else pair.ba += km;
  }
  return [...pairs.values()];
}

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

/** Codes of the current villages: the postal-code file lists every one of them (seed/sources/README.md). */
export function currentVillages(): string[] {
  return readFileSync(join(SOURCES, "wilayah-postal-codes.csv"), "utf8")
    .split("\n")
    .slice(1)
    .map((l) => l.slice(0, l.indexOf(",")))
    .filter(Boolean);
}

const PREFIX: Record<Exclude<Level, "kelurahan">, number> = { provinsi: 2, kabupaten: 5, kecamatan: 8 };

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

export type NeighbourResult = Record<
  Level,
  { regions: number; rows: NeighbourRow[]; seconds: number /** borders only the level's own outlines show */; outlinesOnly: number }
>;

/** Every level's neighbours (the whole computation of the seed build). `villages`: the kelurahan shapes, when already read. */
export async function buildNeighbours(villages?: Shapes): Promise<NeighbourResult> {
  const t0 = performance.now();
  villages ??= await readLevelShapes("kelurahan");
  const villageBorders = bordersOf(villages, sharedLengths(villages, VILLAGE_TOLERANCE_M, CELL_DEG.kelurahan));
  const out = {
    kelurahan: { regions: villages.ids.length, rows: neighbourRows("kelurahan", villageBorders), seconds: (performance.now() - t0) / 1000, outlinesOnly: 0 },
  } as NeighbourResult;
  const drawn = new Set(villages.ids);
  const incomplete = new Set<string>();
  for (const v of currentVillages()) if (!drawn.has(v)) for (const len of Object.values(PREFIX)) incomplete.add(v.slice(0, len));
  for (const level of ["provinsi", "kabupaten", "kecamatan"] as const) {
    const t1 = performance.now();
    const shapes = await readLevelShapes(level);
    const own = bordersOf(shapes, sharedLengths(shapes, OUTLINE_TOLERANCE_M, CELL_DEG[level]));
    const fromVillages = villageBordersAt(villageBorders, PREFIX[level]);
    const borders = combineBorders(own, fromVillages, (id) => !incomplete.has(id));
    const rows = neighbourRows(level, borders);
    const outlinesOnly = rows.filter((r) => r.id < r.neighborId && (fromVillages.get(`${r.id} ${r.neighborId}`) ?? 0) * 1000 < MIN_SHARED_M).length;
    out[level] = { regions: shapes.ids.length, rows, seconds: (performance.now() - t1) / 1000, outlinesOnly };
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

// ---------------------------------------------------------------- command line

async function main() {
  const args = process.argv.slice(2);
  const arg = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const levels = (arg("--level") ? [arg("--level") as Level] : [...LEVELS]).filter((l) => LEVELS.includes(l));
  if (args.includes("--sweep")) {
    // Pairs per tolerance and border threshold, and how far apart the attributed outlines lie.
    const tolerances = (arg("--tolerances") ?? "1,10,30,100,300,1000").split(",").map(Number);
    for (const level of levels) {
      const shapes = await readLevelShapes(level);
      for (const t of tolerances) {
        const t0 = performance.now();
        const pairs = sharedLengths(shapes, t, CELL_DEG[level]);
        const ms = performance.now() - t0;
        const at = (m: number) => pairs.filter((p) => sharedKm(p) * 1000 >= m).length;
        console.log(
          `${level} tolerance ${t} m: pairs near ${pairs.length}, border >= 20 m ${at(20)}, >= 50 m ${at(50)}, >= 100 m ${at(100)}, >= 200 m ${at(200)}, >= 1 km ${at(1000)} (${(ms / 1000).toFixed(1)} s)`,
        );
      }
      if (args.includes("--histogram")) {
        const edges = [1, 3, 10, 30, 60, 100, 150, 200, 300, 500, 1000];
        const histogram = { edges, km: new Float64Array(edges.length + 1) };
        sharedLengths(shapes, edges[edges.length - 1], CELL_DEG[level], { histogram });
        const total = histogram.km.reduce((a, b) => a + b, 0);
        let cum = 0;
        const cells = edges.map((e, b) => {
          cum += histogram.km[b];
          return `<=${e} m ${histogram.km[b].toFixed(0)} km (cum ${((100 * cum) / total).toFixed(2)}%)`;
        });
        console.log(`${level}: outline within 1 km of another region's, by distance to it: ${cells.join(", ")}`);
      }
    }
    return;
  }
  if (args.includes("--crosscheck")) {
    // Each higher level's own outlines against its villages' borders, where both regions have all
    // their villages drawn: pairs found by both, by the outlines only, by the villages only.
    const tolerances = (arg("--tolerances") ?? "30,60,100,150,200,300,500").split(",").map(Number);
    const villages = await readLevelShapes("kelurahan");
    const villageBorders = bordersOf(villages, sharedLengths(villages, VILLAGE_TOLERANCE_M, CELL_DEG.kelurahan));
    const drawn = new Set(villages.ids);
    const incomplete = new Set<string>();
    for (const v of currentVillages()) if (!drawn.has(v)) for (const len of Object.values(PREFIX)) incomplete.add(v.slice(0, len));
    const complete = (key: string) => key.split(" ").every((id) => !incomplete.has(id));
    for (const level of levels.filter((l) => l !== "kelurahan") as Exclude<Level, "kelurahan">[]) {
      const shapes = await readLevelShapes(level);
      const ref = new Map([...villageBordersAt(villageBorders, PREFIX[level])].filter(([k, km]) => complete(k) && km * 1000 >= MIN_SHARED_M));
      console.log(
        `${level}: ${shapes.ids.length - [...shapes.ids].filter((id) => incomplete.has(id)).length} of ${shapes.ids.length} regions have every village drawn; ${ref.size} borders between them from the villages`,
      );
      for (const t of tolerances) {
        const own = new Map([...bordersOf(shapes, sharedLengths(shapes, t, CELL_DEG[level]))].filter(([k, km]) => complete(k) && km * 1000 >= MIN_SHARED_M));
        const both = [...own.keys()].filter((k) => ref.has(k));
        const onlyOwn = [...own.keys()].filter((k) => !ref.has(k));
        const onlyRef = [...ref.keys()].filter((k) => !own.has(k));
        const ratio = both.reduce((s, k) => s + (own.get(k) ?? 0), 0) / both.reduce((s, k) => s + (ref.get(k) ?? 0), 0);
        const list = (keys: string[], m: Borders) =>
          keys
            .slice(0, 6)
            .map((k) => `${k} ${(m.get(k) ?? 0).toFixed(2)} km`)
            .join("; ");
        console.log(
          `  outlines at ${t} m: ${own.size} borders; ${both.length} also from villages, ${onlyOwn.length} not (${list(onlyOwn, own)}), ${onlyRef.length} villages' borders missed (${list(onlyRef, ref)}); length / villages' ${ratio.toFixed(3)}`,
        );
      }
    }
    return;
  }
  const out = arg("--out");
  const t0 = performance.now();
  const result = await buildNeighbours();
  let sql = "";
  for (const level of LEVELS) {
    const { regions, rows, seconds, outlinesOnly } = result[level];
    const part = neighbourSql(level, rows);
    sql += part;
    const without = regions - new Set(rows.map((r) => r.id)).size;
    console.log(
      `${level}: ${regions} regions drawn, ${rows.length / 2} borders (${outlinesOnly} seen only on the level's own outlines), ${without} drawn regions without a neighbour, SQL ${(part.length / 1e6).toFixed(2)} MB, ${seconds.toFixed(1)} s`,
    );
  }
  console.log(`all levels ${((performance.now() - t0) / 1000).toFixed(1)} s, peak rss ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  if (out) writeFileSync(out, sql);
}

if (isMain(import.meta.url)) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
}
