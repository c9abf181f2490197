/** Boundaries of one level read flat, and great-circle distance (moved from neighbours.ts). */
import { createReadStream } from "node:fs";
import { createGunzip } from "node:zlib";

export const SCALE = 1e5; // coordinates are integers in 1e-5 degrees (the source's precision)
export const M_PER_DEG = 111_320; // metres per degree of latitude (and of longitude at the equator)
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
