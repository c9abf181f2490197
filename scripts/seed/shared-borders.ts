/** The shared lengths of outlines within a tolerance, through a segment hash grid (moved from neighbours.ts; the method is in its file comment). */
import type { Level } from "../../src/wilayah/codes.ts";
import { haversineKm, M_PER_DEG, SCALE, type Shapes } from "./shapes.ts";

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
