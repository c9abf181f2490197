/**
 * Neighbours on the real boundaries (seed/sources/wilayah-boundaries-*.csv.gz): the whole seed-build
 * computation once, then its promises (symmetry at every level, Java, Kota Bandung, DKI, straits
 * that stay open) and a sample re-measured by a different, brute-force method on the raw rings.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { LEVELS, type Level } from "../../src/wilayah/codes.ts";
import { boundarySource, readBoundaries } from "./boundary-sql.ts";
import {
  buildNeighbours,
  capsuleInterval,
  currentVillages,
  MIN_SHARED_M,
  type NeighbourResult,
  neighbourSql,
  readLevelShapes,
  type Shapes,
  VILLAGE_TOLERANCE_M,
} from "./neighbours.ts";

/** mulberry32: a small seeded generator, so the sample is the same on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let result: NeighbourResult;
let villages: Shapes;
const of = (level: Level, id: string) =>
  result[level].rows
    .filter((r) => r.id === id)
    .map((r) => r.neighborId)
    .sort();

beforeAll(async () => {
  villages = await readLevelShapes("kelurahan");
  result = await buildNeighbours(villages);
}, 300_000);

describe("neighbours", () => {
  it("are symmetric, with the same length both ways, at every level; no region is its own neighbour", () => {
    for (const level of LEVELS) {
      const rows = result[level].rows;
      expect(rows.length, level).toBeGreaterThan(0);
      const km = new Map(rows.map((r) => [`${r.id} ${r.neighborId}`, r.sharedBorderKm]));
      expect(km.size, `${level}: no duplicate rows`).toBe(rows.length);
      const parts = LEVELS.indexOf(level) + 1;
      // Collected, then compared once: an expect per row would dominate the run time.
      const wrong = rows.filter(
        (r) =>
          r.id === r.neighborId ||
          r.id.split(".").length !== parts ||
          r.neighborId.split(".").length !== parts ||
          r.sharedBorderKm * 1000 < MIN_SHARED_M - 5 || // rounded to 10 m
          km.get(`${r.neighborId} ${r.id}`) !== r.sharedBorderKm,
      );
      expect(wrong.slice(0, 5), level).toEqual([]);
    }
  });

  it("gives every kabupaten/kota on Java at least one neighbour (Kepulauan Seribu, islands in the Java Sea, is not on Java)", () => {
    const java = [...new Set(currentVillages().map((v) => v.slice(0, 5)))].filter(
      (k) => ["31", "32", "33", "34", "35", "36"].includes(k.slice(0, 2)) && k !== "31.01",
    );
    expect(java.length).toBe(118);
    const lonely = java.filter((k) => of("kabupaten", k).length === 0);
    expect(lonely).toEqual([]);
    expect(of("kabupaten", "31.01")).toEqual([]);
  });

  it("Kota Bandung borders Kabupaten Bandung, Kabupaten Bandung Barat and Kota Cimahi; DKI Jakarta borders Jawa Barat and Banten", () => {
    expect(of("kabupaten", "32.73")).toEqual(["32.04", "32.17", "32.77"]);
    expect(of("provinsi", "31")).toEqual(["32", "36"]);
  });

  it("keeps islands across a sea strait apart at every level: Bali-Jawa, Madura-Jawa, Batam-Bintan", () => {
    const madura = /^35\.2[6-9]/;
    for (const level of LEVELS) {
      const crossing = result[level].rows.filter(
        ({ id: a, neighborId: b }) =>
          (a.startsWith("51") && b.startsWith("35")) || // Bali (51) and Jawa Timur (35)
          (madura.test(a) && b.startsWith("35") && !madura.test(b)) || // Madura's four kabupaten and the rest of Jawa Timur
          (a.startsWith("21.71") && (b.startsWith("21.01") || b.startsWith("21.72"))), // Kota Batam and Kabupaten Bintan / Kota Tanjung Pinang
      );
      expect(crossing, level).toEqual([]);
    }
    expect(of("provinsi", "51")).toEqual([]);
  });

  it("reads the boundary files point for point as JSON.parse does (kabupaten file)", async () => {
    const shapes = await readLevelShapes("kabupaten");
    const json = readBoundaries("kabupaten");
    expect(shapes.ids).toEqual(json.map((b) => b.id));
    const mismatches: string[] = [];
    json.forEach((b, g) => {
      const rings = b.rings;
      if (shapes.ringStart[g + 1] - shapes.ringStart[g] !== rings.length) mismatches.push(`${b.id}: ring count`);
      rings.forEach((ring, k) => {
        const r = shapes.ringStart[g] + k;
        const p0 = shapes.pointStart[r];
        if (shapes.pointStart[r + 1] - p0 !== ring.length) mismatches.push(`${b.id} ring ${k}: point count`);
        ring.forEach(([lng, lat], i) => {
          if (shapes.xs[p0 + i] !== Math.round(lng * 1e5) || shapes.ys[p0 + i] !== Math.round(lat * 1e5)) mismatches.push(`${b.id} ring ${k} point ${i}`);
        });
      });
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it("measures the part of a segment within a distance of another segment (capsule)", () => {
    const out = new Float64Array(2);
    expect(capsuleInterval(10, 0, 0, 5, 10, 5, 2.5, out)).toBe(false); // parallel, 5 apart
    expect(capsuleInterval(10, 0, 2, 1, 6, 1, 2, out)).toBe(true); // parallel, 1 apart, over x 2..6, reach 2
    expect(out[0]).toBeCloseTo(0.2 - Math.sqrt(3) / 10, 9);
    expect(out[1]).toBeCloseTo(0.6 + Math.sqrt(3) / 10, 9);
    expect(capsuleInterval(10, 0, 5, -3, 5, 3, 1, out)).toBe(true); // crossing at x = 5
    expect([out[0], out[1]]).toEqual([0.4, 0.6]);
  });

  it("writes INSERT statements under 60 KB each", () => {
    const sql = neighbourSql("kecamatan", result.kecamatan.rows);
    const statements = sql.split("\n").filter(Boolean);
    expect(statements[0]).toBe("DELETE FROM wilayah_neighbor WHERE level = 3;");
    for (const s of statements) expect(s.length).toBeLessThan(60_000);
    expect(statements.filter((s) => s.startsWith("INSERT")).reduce((n, s) => n + s.split("),(").length, 0)).toBe(result.kecamatan.rows.length);
  });
});

// ---------------------------------------------------------------- independent re-measurement

type Ring = [number, number][];

/** The raw rings of some villages, by JSON.parse of their source lines. */
async function rawRings(ids: Set<string>): Promise<Map<string, Ring[]>> {
  const out = new Map<string, Ring[]>();
  const lines = createInterface({ input: createReadStream(boundarySource("kelurahan")).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    const comma = line.indexOf(",");
    const id = line.slice(0, comma);
    if (!ids.has(id)) continue;
    out.set(id, JSON.parse(line.slice(comma + 1).replace(/^"|"$/g, "")) as Ring[]);
  }
  return out;
}

/** Great-circle metres (haversine, R = 6371 km) between two [lng, lat] points. */
function metres(a: [number, number], b: [number, number]): number {
  const r = Math.PI / 180;
  const h = Math.sin(((b[1] - a[1]) * r) / 2) ** 2 + Math.cos(a[1] * r) * Math.cos(b[1] * r) * Math.sin(((b[0] - a[0]) * r) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

/**
 * Brute force: cut every edge of `a` into pieces of at most 2 m; a piece belongs to the region whose
 * outline (any edge, every region in `near`) is closest to its midpoint, if within the tolerance.
 * Distances in a plane tangent at the midpoint (metres east and north); no grid, no capsules. Edges
 * are first narrowed by a plain box test per edge of `a`, which changes no answer.
 */
function attributedMetres(a: Ring[], target: string, near: Map<string, Ring[]>, tol: number): number {
  const edges: { id: string; p: [number, number]; q: [number, number] }[] = [];
  for (const [id, rings] of near) for (const ring of rings) for (let i = 0; i + 1 < ring.length; i++) edges.push({ id, p: ring[i], q: ring[i + 1] });
  const margin = (tol + 5) / 100_000; // degrees, more than the tolerance anywhere in Indonesia
  let total = 0;
  for (const ring of a) {
    for (let i = 0; i + 1 < ring.length; i++) {
      const p = ring[i];
      const q = ring[i + 1];
      const [x0, x1] = [Math.min(p[0], q[0]) - margin, Math.max(p[0], q[0]) + margin];
      const [y0, y1] = [Math.min(p[1], q[1]) - margin, Math.max(p[1], q[1]) + margin];
      const close = edges.filter(
        (e) => Math.max(e.p[0], e.q[0]) >= x0 && Math.min(e.p[0], e.q[0]) <= x1 && Math.max(e.p[1], e.q[1]) >= y0 && Math.min(e.p[1], e.q[1]) <= y1,
      );
      if (!close.some((e) => e.id === target)) continue;
      const len = metres(p, q);
      const n = Math.max(1, Math.ceil(len / 2));
      for (let k = 0; k < n; k++) {
        const t = (k + 0.5) / n;
        const m: [number, number] = [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])];
        const east = 111_320 * Math.cos((m[1] * Math.PI) / 180);
        const north = 110_574 + 1_120 * Math.sin((m[1] * Math.PI) / 180) ** 2; // metres per degree of latitude (WGS84, close enough)
        let best = Infinity;
        let bestId = "";
        for (const e of close) {
          const ax = (m[0] - e.p[0]) * east;
          const ay = (m[1] - e.p[1]) * north;
          const bx = (e.q[0] - e.p[0]) * east;
          const by = (e.q[1] - e.p[1]) * north;
          const l2 = bx * bx + by * by;
          const u = l2 ? Math.max(0, Math.min(1, (ax * bx + ay * by) / l2)) : 0;
          const d = Math.hypot(ax - u * bx, ay - u * by);
          if (d < best) {
            best = d;
            bestId = e.id;
          }
        }
        if (best <= tol && bestId === target) total += len / n;
      }
    }
  }
  return total;
}

describe("neighbours against a brute-force re-measurement", () => {
  it("agrees on 50 seeded-random village borders within 30 m or 3 %, and on their non-neighbours", async () => {
    const random = seeded(20251125);
    const pairs = result.kelurahan.rows.filter((r) => r.id < r.neighborId);
    const sample: (typeof pairs)[number][] = [];
    while (sample.length < 50) sample.push(pairs[Math.floor(random() * pairs.length)]);
    // Every village with an edge within 200 m of the pair's box: found by a scan over all points and
    // edges (no index), then read again from the raw JSON.
    const index = new Map(villages.ids.map((id, i) => [id, i]));
    const box = (ids: string[]) => {
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const id of ids) {
        const g = index.get(id)!;
        for (let p = villages.pointStart[villages.ringStart[g]]; p < villages.pointStart[villages.ringStart[g + 1]]; p++) {
          x0 = Math.min(x0, villages.xs[p]);
          x1 = Math.max(x1, villages.xs[p]);
          y0 = Math.min(y0, villages.ys[p]);
          y1 = Math.max(y1, villages.ys[p]);
        }
      }
      const m = 200; // 1e-5 degrees, about 200 m
      return [x0 - m, y0 - m, x1 + m, y1 + m];
    };
    const nearOf = sample.map((pair) => {
      const [x0, y0, x1, y1] = box([pair.id, pair.neighborId]);
      const near = new Set<string>();
      for (let g = 0; g < villages.ids.length; g++) {
        for (let r = villages.ringStart[g]; r < villages.ringStart[g + 1] && !near.has(villages.ids[g]); r++) {
          for (let p = villages.pointStart[r]; p + 1 < villages.pointStart[r + 1]; p++) {
            const ex0 = Math.min(villages.xs[p], villages.xs[p + 1]);
            const ex1 = Math.max(villages.xs[p], villages.xs[p + 1]);
            const ey0 = Math.min(villages.ys[p], villages.ys[p + 1]);
            const ey1 = Math.max(villages.ys[p], villages.ys[p + 1]);
            if (ex1 >= x0 && ex0 <= x1 && ey1 >= y0 && ey0 <= y1) {
              near.add(villages.ids[g]);
              break;
            }
          }
        }
      }
      return near;
    });
    const raw = await rawRings(new Set(nearOf.flatMap((s) => [...s])));
    const km = new Map(result.kelurahan.rows.map((r) => [`${r.id} ${r.neighborId}`, r.sharedBorderKm]));
    let worst = 0;
    let checkedNon = 0;
    for (let i = 0; i < sample.length; i++) {
      const { id: a, neighborId: b, sharedBorderKm } = sample[i];
      const others = (self: string) => new Map([...nearOf[i]].filter((id) => id !== self).map((id) => [id, raw.get(id)!]));
      const ab = attributedMetres(raw.get(a)!, b, others(a), VILLAGE_TOLERANCE_M);
      const ba = attributedMetres(raw.get(b)!, a, others(b), VILLAGE_TOLERANCE_M);
      const brute = (ab + ba) / 2 / 1000;
      const diff = Math.abs(brute - sharedBorderKm);
      worst = Math.max(worst, diff / Math.max(sharedBorderKm, 1));
      expect(diff, `${a} ${b}: ${sharedBorderKm} km, brute force ${brute.toFixed(3)} km`).toBeLessThanOrEqual(Math.max(0.03, 0.03 * sharedBorderKm));
      // A third village near both whose border with `a` the result omits must measure under the threshold.
      for (const c of nearOf[i]) {
        if (c === a || c === b || km.has(`${a} ${c}`) || !raw.get(c)) continue;
        const ac = (attributedMetres(raw.get(a)!, c, others(a), VILLAGE_TOLERANCE_M) + attributedMetres(raw.get(c)!, a, others(c), VILLAGE_TOLERANCE_M)) / 2;
        expect(ac, `${a} ${c} is no neighbour, brute force ${ac.toFixed(0)} m`).toBeLessThan(MIN_SHARED_M + 10);
        checkedNon++;
        break;
      }
    }
    console.log(
      `brute-force re-measurement: 50 borders, worst difference ${(100 * worst).toFixed(2)}% (of max(border, 1 km)); ${checkedNon} non-neighbours checked`,
    );
  }, 300_000);
});
