/**
 * Neighbours, nearby and coverage on the full data (issue 25): the migrations, seed/wilayah.sql and
 * the whole kelurahan/desa load (boundaries and village neighbours, scripts/seed/boundaries.ts) in
 * node:sqlite, read by the API's own services and SQL through the D1 shim (scripts/sqlite-d1.ts),
 * as test/node/reverse-quality.test.ts does. Checks the promises over every level, re-measures
 * a seeded sample of village borders by a brute-force method on the raw rings, and compares nearby
 * answers with a brute force over every centroid.
 */
import { createReadStream, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { DatabaseSync } from "node:sqlite";
import { createGunzip } from "node:zlib";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_DIR } from "../../scripts/lib";
import { MIN_SHARED_M } from "../../scripts/seed/borders";
import { kelurahanBoundarySql } from "../../scripts/seed/boundaries";
import { boundarySource } from "../../scripts/seed/boundary-sql";
import { VILLAGE_TOLERANCE_M } from "../../scripts/seed/neighbours";
import { sqliteDb } from "../../scripts/sqlite-d1";
import type { RegionDb } from "../../src/db/client";
import { seeded } from "../../src/lib/random";
import { LEVELS, type Level, parentAt } from "../../src/wilayah/codes";
import { getCoverage } from "../../src/wilayah/coverage/service";
import { nearestSql } from "../../src/wilayah/nearby/queries";
import { nearby } from "../../src/wilayah/nearby/service";
import { getNeighbors } from "../../src/wilayah/neighbors/service";
import { seededMemoryDb } from "./seeded-db.ts";

const root = join(import.meta.dirname, "..", "..");
const manifest = JSON.parse(readFileSync(join(root, "seed", "manifest.json"), "utf8"));

/** Great-circle km (haversine, mean Earth radius), written here apart from the API's SQL. */
function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

let db: DatabaseSync;
let runner: RegionDb;
type Row = { id: string; neighbor_id: string; level: number; shared_border_km: number };
const rowsOf = (level: number) => db.prepare("SELECT id, neighbor_id, level, shared_border_km FROM wilayah_neighbor WHERE level = ?").all(level) as Row[];
const ids = async (id: string) => (await getNeighbors(runner, id)).data.map((n) => n.id).sort();

// The files of a lane share its process (vitest.config.ts): the database goes with the file.
afterAll(() => db?.close());

beforeAll(() => {
  // The seed without the search index (not read here), then every village boundary and border.
  db = seededMemoryDb((l) => l !== "" && !l.startsWith("--") && !/^INSERT INTO wilayah_(grams|short|search) /.test(l));
  db.exec(kelurahanBoundarySql(SEED_DIR));
  runner = sqliteDb(db);
}, 300_000); // every boundary of the seed into node:sqlite: tens of seconds quiet

describe("neighbours on the full data", () => {
  it("are symmetric with the same length both ways at every level, never the region itself, and as many as the seed build counted", () => {
    for (const level of [1, 2, 3, 4]) {
      const rows = rowsOf(level);
      expect(rows.length, `level ${level}`).toBe(2 * manifest.neighbours[LEVELS[level - 1]]);
      const km = new Map(rows.map((r) => [`${r.id} ${r.neighbor_id}`, r.shared_border_km]));
      const wrong = rows.filter(
        (r) =>
          r.id === r.neighbor_id ||
          r.id.split(".").length !== level ||
          r.neighbor_id.split(".").length !== level ||
          r.shared_border_km * 1000 < MIN_SHARED_M - 5 || // rounded to 10 m
          km.get(`${r.neighbor_id} ${r.id}`) !== r.shared_border_km,
      );
      expect(wrong.slice(0, 5), `level ${level}`).toEqual([]);
    }
  });

  it("every kabupaten/kota on Java has a neighbour (Kepulauan Seribu, in the Java Sea, is not on Java and has none)", async () => {
    const java = (
      db.prepare("SELECT id FROM kabupaten WHERE is_active = 1 AND provinsi_id IN ('31', '32', '33', '34', '35', '36') AND id <> '31.01'").all() as {
        id: string;
      }[]
    ).map((r) => r.id);
    expect(java.length).toBe(118);
    const lonely: string[] = [];
    for (const id of java) if ((await getNeighbors(runner, id)).data.length === 0) lonely.push(id);
    expect(lonely).toEqual([]);
    expect(await getNeighbors(runner, "31.01")).toEqual({ data: [], meta: { boundary: true, total: 0 } });
  });

  it("Kota Bandung: Kabupaten Bandung, Kabupaten Bandung Barat, Kota Cimahi; DKI Jakarta: Jawa Barat, Banten", async () => {
    expect(await ids("32.73")).toEqual(["32.04", "32.17", "32.77"]);
    expect(await ids("31")).toEqual(["32", "36"]);
  });

  it("keeps islands across a sea strait apart at every level: Bali-Jawa, Madura-Jawa, Batam-Bintan", async () => {
    const madura = /^35\.2[6-9]/;
    for (const level of [1, 2, 3, 4]) {
      const crossing = rowsOf(level).filter(
        ({ id: a, neighbor_id: b }) =>
          (a.startsWith("51") && b.startsWith("35")) || // Bali (51) and Jawa Timur (35)
          (madura.test(a) && b.startsWith("35") && !madura.test(b)) || // Madura's four kabupaten and the rest of Jawa Timur
          (a.startsWith("21.71") && (b.startsWith("21.01") || b.startsWith("21.72"))), // Kota Batam and Kabupaten Bintan / Kota Tanjung Pinang
      );
      expect(crossing, `level ${level}`).toEqual([]);
    }
    expect(await ids("51")).toEqual([]);
  });

  it("says whether neighbours are known: a village without a boundary is unknown, an islet village is none", async () => {
    // 11.16.06.2021: no boundary in the source (one of 360 villages).
    expect(await getNeighbors(runner, "11.16.06.2021")).toEqual({ data: [], meta: { boundary: false, total: 0 } });
    const islands = db
      .prepare("SELECT b.id FROM wilayah_bbox b WHERE b.level = 4 AND NOT EXISTS (SELECT 1 FROM wilayah_neighbor n WHERE n.id = b.id) ORDER BY b.id")
      .all() as { id: string }[];
    expect(islands.length).toBe(353);
    expect((await getNeighbors(runner, islands[0].id)).meta).toEqual({ boundary: true, total: 0 });
  });

  it("higher levels are the sums of their villages' borders (where every village is drawn): kabupaten/kota within rounding", () => {
    const villages = rowsOf(4);
    const sums = new Map<string, number>();
    for (const r of villages) {
      const a = parentAt(r.id, "kabupaten");
      const b = parentAt(r.neighbor_id, "kabupaten");
      if (a !== b) sums.set(`${a} ${b}`, (sums.get(`${a} ${b}`) ?? 0) + r.shared_border_km);
    }
    const incomplete = new Set(
      (
        db
          .prepare("SELECT substr(id, 1, 5) AS k FROM kelurahan k WHERE is_active = 1 AND NOT EXISTS (SELECT 1 FROM wilayah_bbox b WHERE b.id = k.id)")
          .all() as { k: string }[]
      ).map((r) => r.k),
    );
    let compared = 0;
    for (const r of rowsOf(2)) {
      if (incomplete.has(r.id) || incomplete.has(r.neighbor_id)) continue;
      // Each village border was rounded to 10 m, and borders under 50 m were dropped: a few metres per village pair.
      const sum = sums.get(`${r.id} ${r.neighbor_id}`) ?? 0;
      expect(Math.abs(sum - r.shared_border_km), `${r.id} ${r.neighbor_id}`).toBeLessThan(0.05 + 0.02 * r.shared_border_km);
      compared++;
    }
    expect(compared).toBeGreaterThan(1500);
  });
});

// ---------------------------------------------------------------- independent re-measurement

type Ring = [number, number][];

/** The raw rings of some villages, by JSON.parse of their source lines. */
async function rawRings(wanted: Set<string>): Promise<Map<string, Ring[]>> {
  const out = new Map<string, Ring[]>();
  const lines = createInterface({ input: createReadStream(boundarySource(SEED_DIR, "kelurahan")).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    const comma = line.indexOf(",");
    const id = line.slice(0, comma);
    if (!wanted.has(id)) continue;
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

describe("neighbours against a brute-force re-measurement on the raw rings", () => {
  it("agrees on 50 seeded-random village borders within 30 m or 3 %, and on their non-neighbours", async () => {
    const random = seeded(20251125);
    const pairs = rowsOf(4).filter((r) => r.id < r.neighbor_id);
    const sample: Row[] = [];
    while (sample.length < 50) sample.push(pairs[Math.floor(random() * pairs.length)]);
    // Every village whose boundary box comes within about 200 m of the pair's, then read again from the raw JSON.
    const box = db.prepare("SELECT min(min_lng) AS w, min(min_lat) AS s, max(max_lng) AS e, max(max_lat) AS n FROM wilayah_bbox WHERE id IN (?, ?)");
    const within = db.prepare("SELECT id FROM wilayah_bbox WHERE level = 4 AND max_lng >= ? AND min_lng <= ? AND max_lat >= ? AND min_lat <= ?");
    const m = 0.002;
    const nearOf = sample.map((pair) => {
      const b = box.get(pair.id, pair.neighbor_id) as { w: number; s: number; e: number; n: number };
      return new Set((within.all(b.w - m, b.e + m, b.s - m, b.n + m) as { id: string }[]).map((r) => r.id));
    });
    const raw = await rawRings(new Set(nearOf.flatMap((s) => [...s])));
    const km = new Map(rowsOf(4).map((r) => [`${r.id} ${r.neighbor_id}`, r.shared_border_km]));
    let worst = 0;
    let checkedNon = 0;
    for (let i = 0; i < sample.length; i++) {
      const { id: a, neighbor_id: b, shared_border_km } = sample[i];
      const others = (self: string) => new Map([...nearOf[i]].filter((id) => id !== self).map((id) => [id, raw.get(id) ?? []]));
      const ab = attributedMetres(raw.get(a) ?? [], b, others(a), VILLAGE_TOLERANCE_M);
      const ba = attributedMetres(raw.get(b) ?? [], a, others(b), VILLAGE_TOLERANCE_M);
      const brute = (ab + ba) / 2 / 1000;
      const diff = Math.abs(brute - shared_border_km);
      worst = Math.max(worst, diff / Math.max(shared_border_km, 1));
      expect(diff, `${a} ${b}: ${shared_border_km} km, brute force ${brute.toFixed(3)} km`).toBeLessThanOrEqual(Math.max(0.03, 0.03 * shared_border_km));
      // A third village near both whose border with `a` the table omits must measure under the threshold.
      for (const c of nearOf[i]) {
        if (c === a || c === b || km.has(`${a} ${c}`) || !raw.get(c)) continue;
        const ac =
          (attributedMetres(raw.get(a) ?? [], c, others(a), VILLAGE_TOLERANCE_M) + attributedMetres(raw.get(c) ?? [], a, others(c), VILLAGE_TOLERANCE_M)) / 2;
        expect(ac, `${a} ${c} is no neighbour, brute force ${ac.toFixed(0)} m`).toBeLessThan(MIN_SHARED_M + 10);
        checkedNon++;
        break;
      }
    }
    console.log(
      `brute-force re-measurement: 50 village borders, worst difference ${(100 * worst).toFixed(2)}% (of max(border, 1 km)); ${checkedNon} non-neighbours checked`,
    );
    expect(checkedNon).toBeGreaterThan(20);
  }, 300_000); // re-measures 50 village borders on the raw rings (a brute force, by design slow)
});

// ---------------------------------------------------------------- nearby

type Centroid = { id: string; lat: number; lng: number };

describe("nearby on the full data", () => {
  const centroids = {} as Record<Level, Centroid[]>;
  beforeAll(() => {
    for (const level of LEVELS) {
      centroids[level] = db.prepare(`SELECT id, lat, lng FROM ${level} WHERE is_active = 1 AND lat IS NOT NULL ORDER BY id`).all() as Centroid[];
    }
  });
  type Hit = { id: string; km: number };
  const nearer = (a: Hit, b: Hit) => a.km < b.km || (a.km === b.km && a.id < b.id);
  /** Every centroid measured, the nearest `limit` within `radius` kept in order (a sorted list of at most `limit`, not a sort of all 83,000 villages per call). */
  const bruteForce = (level: Level, lat: number, lng: number, limit: number, radius: number) => {
    const best: Hit[] = [];
    for (const c of centroids[level]) {
      const hit = { id: c.id, km: haversineKm(lat, lng, c.lat, c.lng) };
      if (hit.km > radius || (best.length === limit && !nearer(hit, best[limit - 1]))) continue;
      let at = best.length;
      while (at > 0 && nearer(hit, best[at - 1])) at--;
      best.splice(at, 0, hit);
      if (best.length > limit) best.pop();
    }
    return best;
  };

  it("the nearest village to a village's own centroid is that village (>= 99% of 10,000 seeded villages)", async () => {
    const villages = centroids.kelurahan;
    const random = seeded(20251126);
    const picked = new Set<number>();
    while (picked.size < 10_000) picked.add(Math.floor(random() * villages.length));
    let itself = 0;
    for (const i of picked) {
      const v = villages[i];
      const { data } = await nearby(runner, { lat: v.lat, lng: v.lng, level: "kelurahan", limit: 1 });
      if (data[0]?.id === v.id && data[0].distance_km === 0) itself++;
    }
    console.log(`nearby self check: ${itself} / 10000 villages' own centroids answer the village itself`);
    expect(itself / 10_000).toBeGreaterThanOrEqual(0.99);
  }, 300_000); // 10,000 villages, each asked: a sample large enough to hold the 99% floor

  it("answers equal a brute force over every centroid (ids, order, distances to the metre), sorted, at every level, with and without a radius", async () => {
    const random = seeded(20251127);
    const villages = centroids.kelurahan;
    let compared = 0;
    for (const level of LEVELS) {
      for (const [limit, radius] of [
        [10, undefined],
        [50, undefined],
        [10, 100],
        [50, 20],
      ] as const) {
        for (let i = 0; i < 60; i++) {
          // Half near a village (moved up to about 11 km), half anywhere in the box (mostly sea).
          const v = villages[Math.floor(random() * villages.length)];
          const p =
            i % 2 ? { lat: -11 + random() * 17, lng: 95 + random() * 46 } : { lat: v.lat + (random() - 0.5) * 0.2, lng: v.lng + (random() - 0.5) * 0.2 };
          const { data, meta } = await nearby(runner, { lat: p.lat, lng: p.lng, level, limit, radiusKm: radius });
          const want = bruteForce(level, p.lat, p.lng, limit, radius ?? Infinity);
          const where = `${level} ${p.lat},${p.lng} limit ${limit} radius ${radius}`;
          expect(
            data.map((d) => d.id),
            where,
          ).toEqual(want.map((w) => w.id));
          data.forEach((d, j) => {
            expect(Math.abs(d.distance_km - want[j].km), where).toBeLessThan(0.0006);
            if (j) expect(d.distance_km, where).toBeGreaterThanOrEqual(data[j - 1].distance_km);
          });
          expect(data.filter((d) => d.inside).length, where).toBeLessThanOrEqual(1);
          if (meta.containing && data.some((d) => d.id === meta.containing?.id)) expect(data.find((d) => d.inside)?.id).toBe(meta.containing.id);
          compared++;
        }
      }
    }
    expect(compared).toBe(4 * 4 * 60);
  }, 300_000); // a brute force over every centroid, at every level

  it("reads the pyramid by index only: every table access of the statement is a primary-key search", () => {
    for (const level of LEVELS) {
      const q = new SQLiteAsyncDialect().sqlToQuery(nearestSql(level, -6.9, 107.6, 10, 1e9));
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.params as number[])) as { detail: string }[]).map((p) => p.detail);
      // Scans of its own constants, offsets, queue and hits only.
      expect(
        plan.filter((d) => /^SCAN /.test(d) && !/^SCAN (k|o|q|hits|CONSTANT ROW|\d+ CONSTANT ROWS)$/.test(d)),
        level,
      ).toEqual([]);
    }
  });
});

describe("coverage on the full data", () => {
  it("every region with a boundary has a coordinate inside it, at every level (issue 41)", () => {
    for (const level of LEVELS) {
      const n = LEVELS.indexOf(level) + 1;
      const lacking = db.prepare(`SELECT r.id FROM ${level} r JOIN wilayah_bbox b ON b.id = r.id AND b.level = ? WHERE r.lat IS NULL`).all(n);
      expect(lacking, `${level}: a boundary and no coordinate`).toEqual([]);
    }
  });

  it("reports every loaded boundary and the known gaps", async () => {
    const { data } = await getCoverage(runner);
    expect(data).toEqual([
      { level: "provinsi", regions: 38, coordinates: 38, boundary: 38, postal_code: null, population: 38, area: 38, bps_code: null },
      { level: "kabupaten", regions: 514, coordinates: 514, boundary: 514, postal_code: null, population: 514, area: 514, bps_code: 514 },
      { level: "kecamatan", regions: 7285, coordinates: 7285, boundary: 7285, postal_code: null, population: null, area: null, bps_code: 7284 },
      { level: "kelurahan", regions: 83_762, coordinates: 83_402, boundary: 83_402, postal_code: 83_762, population: null, area: null, bps_code: 82_934 },
    ]);
  });
});
