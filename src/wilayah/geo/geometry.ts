/**
 * Geometry of region boundaries. Pure functions shared by the Worker and the seed build (scripts
 * import this file directly, so it imports nothing).
 *
 * Storage format of a boundary (`wilayah_shape.data`, rows concatenated in `part` order): its rings
 * separated by one space, each ring in the Encoded Polyline Algorithm Format (precision 5, the
 * source's own precision, so the encoding is lossless), `lat` before `lng` as the format defines,
 * without the closing point (decoding closes the ring). Rings keep the source's orientation:
 * exterior rings counter-clockwise, holes clockwise (RFC 7946). About 5 characters per point instead
 * of about 20 in JSON, and no character that needs quoting in SQL (the alphabet is `?`..`~`).
 */

export type Point = [lng: number, lat: number];
export type Ring = Point[];

const SCALE = 1e5;

function encodeNumber(n: number): string {
  let v = n < 0 ? ~(n << 1) : n << 1;
  let out = "";
  while (v >= 0x20) {
    out += String.fromCharCode((0x20 | (v & 0x1f)) + 63);
    v >>>= 5;
  }
  return out + String.fromCharCode(v + 63);
}

/** One closed ring (last point equals the first) to its encoded form, without the closing point. */
export function encodeRing(ring: Ring): string {
  const last = ring[ring.length - 1];
  const closed = ring.length > 1 && ring[0][0] === last[0] && ring[0][1] === last[1];
  const n = closed ? ring.length - 1 : ring.length;
  let out = "";
  let pLat = 0;
  let pLng = 0;
  for (let i = 0; i < n; i++) {
    const lat = Math.round(ring[i][1] * SCALE);
    const lng = Math.round(ring[i][0] * SCALE);
    out += encodeNumber(lat - pLat) + encodeNumber(lng - pLng);
    pLat = lat;
    pLng = lng;
  }
  return out;
}

export const encodeRings = (rings: Ring[]): string => rings.map(encodeRing).join(" ");

/** Decodes one ring into flat arrays of integer coordinates (1e-5 degrees), closed. */
export function decodeRingInts(s: string): { xs: Int32Array; ys: Int32Array } {
  const xs: number[] = [];
  const ys: number[] = [];
  let i = 0;
  let lat = 0;
  let lng = 0;
  while (i < s.length) {
    for (let axis = 0; axis < 2; axis++) {
      let shift = 0;
      let result = 0;
      let b: number;
      do {
        b = s.charCodeAt(i++) - 63;
        result |= (b & 0x1f) << shift;
        shift += 5;
      } while (b >= 0x20);
      const d = result & 1 ? ~(result >> 1) : result >> 1;
      if (axis === 0) lat += d;
      else lng += d;
    }
    xs.push(lng);
    ys.push(lat);
  }
  if (xs.length) {
    xs.push(xs[0]);
    ys.push(ys[0]);
  }
  return { xs: Int32Array.from(xs), ys: Int32Array.from(ys) };
}

export type DecodedRing = { xs: Int32Array; ys: Int32Array /** +1 exterior (counter-clockwise), -1 hole */; sign: 1 | -1 };

/** Twice the signed area (positive: counter-clockwise), in integer units squared. */
function signedArea2(xs: Int32Array, ys: Int32Array): number {
  let a = 0;
  for (let i = 0, n = xs.length - 1; i < n; i++) a += xs[i] * ys[i + 1] - xs[i + 1] * ys[i];
  return a;
}

export function decodeShape(data: string): DecodedRing[] {
  return data
    .split(" ")
    .filter((s) => s.length > 0)
    .map((s) => {
      const { xs, ys } = decodeRingInts(s);
      return { xs, ys, sign: signedArea2(xs, ys) >= 0 ? 1 : -1 };
    });
}

/**
 * Ray casting on integer coordinates (exact comparisons; crossings use a half-open rule, so a point
 * on an edge shared by two regions with the same vertices is inside exactly one of them).
 */
export function ringContains(r: { xs: Int32Array; ys: Int32Array }, x: number, y: number): boolean {
  const { xs, ys } = r;
  let inside = false;
  for (let i = 0, j = xs.length - 1; i < xs.length; j = i++) {
    const yi = ys[i];
    const yj = ys[j];
    if (yi > y !== yj > y) {
      const xi = xs[i];
      const xj = xs[j];
      // x < xi + (y - yi) * (xj - xi) / (yj - yi), without division
      const lhs = (x - xi) * (yj - yi);
      const rhs = (y - yi) * (xj - xi);
      if (yj - yi > 0 ? lhs < rhs : lhs > rhs) inside = !inside;
    }
  }
  return inside;
}

/** The data's rule: +1 for each exterior ring and -1 for each hole containing the point; inside when above 0. */
export function shapeContains(rings: DecodedRing[], lng: number, lat: number): boolean {
  const x = Math.round(lng * SCALE);
  const y = Math.round(lat * SCALE);
  let sum = 0;
  for (const r of rings) if (ringContains(r, x, y)) sum += r.sign;
  return sum > 0;
}

/** Distance in km (equirectangular, fine at these scales) from a point to the nearest edge of a shape. */
export function shapeDistanceKm(rings: DecodedRing[], lng: number, lat: number): number {
  const k = Math.cos((lat * Math.PI) / 180);
  const px = lng * SCALE;
  const py = lat * SCALE;
  let best = Infinity;
  for (const { xs, ys } of rings) {
    for (let i = 0; i < xs.length - 1; i++) {
      const ax = (px - xs[i]) * k;
      const ay = py - ys[i];
      const dx = (xs[i + 1] - xs[i]) * k;
      const dy = ys[i + 1] - ys[i];
      const len2 = dx * dx + dy * dy;
      const t = len2 ? Math.max(0, Math.min(1, (ax * dx + ay * dy) / len2)) : 0;
      const ex = ax - t * dx;
      const ey = ay - t * dy;
      const d = ex * ex + ey * ey;
      if (d < best) best = d;
    }
  }
  return (Math.sqrt(best) / SCALE) * 111.32;
}

// ---------------------------------------------------------------- a point of a region

/** A ring of source points ([lng, lat] in degrees) as integer rings with their orientation. */
export function ringsOf(rings: Ring[]): DecodedRing[] {
  return rings.map((ring) => {
    const xs = Int32Array.from(ring, (p) => Math.round(p[0] * SCALE));
    const ys = Int32Array.from(ring, (p) => Math.round(p[1] * SCALE));
    return { xs, ys, sign: signedArea2(xs, ys) >= 0 ? 1 : -1 };
  });
}

/**
 * A coordinate for a region that has a boundary but no centroid in the sources: the area centroid
 * of its shape (holes subtracted) when that lies inside, else the middle of the widest inside
 * stretch of the parallel through it (a crescent's or an archipelago's centroid may lie outside, or
 * at sea: `/nearby` and `/reverse` then disagree). 6 decimals, as the centroid file. Null for a
 * shape with no area.
 */
export function interiorPoint(rings: DecodedRing[]): { lat: number; lng: number } | null {
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (const { xs, ys } of rings) {
    for (let i = 0, n = xs.length - 1; i < n; i++) {
      const cross = xs[i] * ys[i + 1] - xs[i + 1] * ys[i];
      a += cross;
      cx += (xs[i] + xs[i + 1]) * cross;
      cy += (ys[i] + ys[i + 1]) * cross;
    }
  }
  if (a === 0) return null;
  const round = (v: number) => Math.round((v / SCALE) * 1e6) / 1e6;
  const x = cx / (3 * a);
  const y = cy / (3 * a);
  if (shapeContains(rings, round(x), round(y))) return { lat: round(y), lng: round(x) };
  // The parallel through the centroid (else through the middle of the largest exterior ring): its
  // crossings with every edge, and the widest stretch between two of them that lies inside.
  const largest = rings.filter((r) => r.sign > 0).reduce((m, r) => (Math.abs(signedArea2(r.xs, r.ys)) > Math.abs(signedArea2(m.xs, m.ys)) ? r : m));
  let [lo, hi] = [Infinity, -Infinity];
  for (const v of largest.ys) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  for (const line of [y, (lo + hi) / 2 + 0.5]) {
    const xsAt: number[] = [];
    for (const r of rings) {
      for (let i = 0, n = r.xs.length - 1; i < n; i++) {
        const [y0, y1] = [r.ys[i], r.ys[i + 1]];
        if (y0 > line !== y1 > line) xsAt.push(r.xs[i] + ((line - y0) * (r.xs[i + 1] - r.xs[i])) / (y1 - y0));
      }
    }
    xsAt.sort((p, q) => p - q);
    let best: { lat: number; lng: number } | null = null;
    let width = 0;
    for (let i = 0; i + 1 < xsAt.length; i++) {
      const mid = { lat: round(line), lng: round((xsAt[i] + xsAt[i + 1]) / 2) };
      if (xsAt[i + 1] - xsAt[i] > width && shapeContains(rings, mid.lng, mid.lat)) {
        width = xsAt[i + 1] - xsAt[i];
        best = mid;
      }
    }
    if (best) return best;
  }
  return { lat: round(y), lng: round(x) };
}

// ---------------------------------------------------------------- GeoJSON

/** Douglas-Peucker on a closed ring (integer units); keeps at least 4 points or returns null. */
function simplifyRing(xs: Int32Array, ys: Int32Array, tolerance: number): number[] | null {
  const n = xs.length;
  const keep = new Uint8Array(n);
  keep[0] = keep[n - 1] = 1;
  const t2 = tolerance * tolerance;
  // A closed ring: split at the point farthest from the start so both halves have distinct ends.
  let far = 0;
  let farD = -1;
  for (let i = 1; i < n - 1; i++) {
    const d = (xs[i] - xs[0]) ** 2 + (ys[i] - ys[0]) ** 2;
    if (d > farD) {
      farD = d;
      far = i;
    }
  }
  keep[far] = 1;
  const stack: [number, number][] = [
    [0, far],
    [far, n - 1],
  ];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [a, b] = top;
    const dx = xs[b] - xs[a];
    const dy = ys[b] - ys[a];
    const len2 = dx * dx + dy * dy;
    let idx = -1;
    let best = t2;
    for (let i = a + 1; i < b; i++) {
      let d: number;
      if (len2 === 0) d = (xs[i] - xs[a]) ** 2 + (ys[i] - ys[a]) ** 2;
      else {
        const cross = (xs[i] - xs[a]) * dy - (ys[i] - ys[a]) * dx;
        d = (cross * cross) / len2;
      }
      if (d > best) {
        best = d;
        idx = i;
      }
    }
    if (idx >= 0) {
      keep[idx] = 1;
      stack.push([a, idx], [idx, b]);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(i);
  return out.length >= 4 ? out : null;
}

const toDeg = (v: number) => v / SCALE;

/**
 * A GeoJSON MultiPolygon from the stored rings: a polygon per exterior ring, each hole attached to
 * the exterior ring that contains it. `simplify` (degrees) applies Douglas-Peucker per ring; rings
 * that collapse are dropped, except that a region always keeps its largest exterior ring.
 */
export function toMultiPolygon(rings: DecodedRing[], simplify = 0): number[][][][] {
  const tol = simplify * SCALE;
  const prepared = rings.map((r) => {
    const idx = tol > 0 ? simplifyRing(r.xs, r.ys, tol) : null;
    return { ring: r, idx, area: Math.abs(signedArea2(r.xs, r.ys)) };
  });
  const largest = prepared.filter((p) => p.ring.sign > 0).reduce<(typeof prepared)[number] | null>((m, p) => (!m || p.area > m.area ? p : m), null);
  const coords = (p: (typeof prepared)[number]): number[][] | null => {
    const { xs, ys } = p.ring;
    if (tol > 0) {
      const idx = p.idx ?? (p === largest ? Array.from(xs, (_, i) => i) : null);
      return idx ? idx.map((i) => [toDeg(xs[i]), toDeg(ys[i])]) : null;
    }
    return Array.from(xs, (x, i) => [toDeg(x), toDeg(ys[i])]);
  };
  const exteriors = prepared.filter((p) => p.ring.sign > 0);
  const polygons = exteriors.map((p) => ({ p, rings: [] as number[][][] }));
  const out: { p: (typeof prepared)[number]; rings: number[][][] }[] = [];
  for (const poly of polygons) {
    const c = coords(poly.p);
    if (c) {
      poly.rings.push(c);
      out.push(poly);
    }
  }
  for (const hole of prepared.filter((p) => p.ring.sign < 0)) {
    const c = coords(hole);
    if (!c) continue;
    // The smallest exterior ring containing the hole's first vertex.
    const hx = hole.ring.xs[0];
    const hy = hole.ring.ys[0];
    let owner: (typeof out)[number] | undefined;
    for (const poly of out) {
      if (ringContainsOrOn(poly.p.ring, hx, hy) && (!owner || poly.p.area < owner.p.area)) owner = poly;
    }
    owner?.rings.push(c);
  }
  return out.map((poly) => poly.rings);
}

/** A hole's vertex may lie on its exterior ring; count that as inside. */
function ringContainsOrOn(r: { xs: Int32Array; ys: Int32Array }, x: number, y: number): boolean {
  for (let i = 0; i < r.xs.length; i++) if (r.xs[i] === x && r.ys[i] === y) return true;
  return ringContains(r, x, y);
}

// ---------------------------------------------------------------- index

/** Grid cell size per level (degrees), for the candidate index `wilayah_grid`. */
export const GRID_CELL = { kecamatan: 0.2, kelurahan: 0.05 } as const;

/** Indonesia's box with margin; cells count from its south-west corner. */
const GRID_ORIGIN = { lat: -12, lng: 94 };

/** The cells of a box (at most 4 when the box is smaller than a cell). */
export function gridCells(minLng: number, minLat: number, maxLng: number, maxLat: number, size: number): number[] {
  return [...new Set([gridCell(minLng, minLat, size), gridCell(maxLng, minLat, size), gridCell(minLng, maxLat, size), gridCell(maxLng, maxLat, size)])];
}

/** The cell holding a point, at a given cell size: row * 10000 + column. */
export function gridCell(lng: number, lat: number, size: number): number {
  return Math.floor((lat - GRID_ORIGIN.lat) / size) * 10_000 + Math.floor((lng - GRID_ORIGIN.lng) / size);
}

/** SQL pieces for building grid rows from bounding boxes (the seed does it inside SQLite). */
export const GRID_SQL = { originLat: GRID_ORIGIN.lat, originLng: GRID_ORIGIN.lng };

// ---------------------------------------------------------------- degrees, minutes, seconds

/**
 * `03°19'03.44" N 097°07'41.73" E` (idn-area-data's island coordinates) to decimal degrees,
 * 6 decimals; south and west are negative. Returns null for text in any other form.
 */
export function parseDms(text: string): { lat: number; lng: number } | null {
  const m = /^\s*(\d{1,3})°\s*(\d{1,2})['′]\s*(\d{1,2}(?:\.\d+)?)["″]\s*([NS])\s+(\d{1,3})°\s*(\d{1,2})['′]\s*(\d{1,2}(?:\.\d+)?)["″]\s*([EW])\s*$/.exec(text);
  if (!m) return null;
  const deg = (d: string, mi: string, s: string, hemi: string, negative: string) => {
    const v = Number(d) + Number(mi) / 60 + Number(s) / 3600;
    return Math.round((hemi === negative ? -v : v) * 1e6) / 1e6;
  };
  const lat = deg(m[1], m[2], m[3], m[4], "S");
  const lng = deg(m[5], m[6], m[7], m[8], "W");
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180 || Number(m[2]) >= 60 || Number(m[6]) >= 60 || Number(m[3]) >= 60 || Number(m[7]) >= 60) return null;
  return { lat, lng };
}
