/**
 * Experiment behind docs/nearby-method.md and docs/performance.md "Nearby" (issue 25, `GET /nearby`):
 * how many rows a "regions nearest to a point, by centroid" query reads, and whether its answers
 * equal a brute-force nearest over every centroid. Not a test: it loads the whole data
 * (seed/wilayah.sql and every village boundary, like test/node/reverse-quality.test.ts) into
 * node:sqlite and prints figures.
 *
 *   node scripts/boot.mjs node scripts/seed/nearby-experiment.ts [--points 2000] [--self 10000]
 *
 * Three methods:
 *   grid     the reverse geocoder's `wilayah_grid` (a row per cell that a region's bounding box
 *            touches; kecamatan and kelurahan only; provinsi and kabupaten are read whole), read
 *            ring by ring (below);
 *   ring     a flat centroid grid (`ring_point (level, cell, id, lat, lng)`, built here: one row per
 *            region with coordinates, in the cell of its centroid), read ring by ring;
 *   pyramid  what the API runs: `wilayah_point` (the centroids and a pyramid of occupied cells above
 *            them, src/wilayah/nearby/grid.ts), walked best-first (src/wilayah/nearby/queries.ts).
 *            Emulated here step for step on the table's rows, counting the rows the walk reads.
 * The ring search reads the square of cells around the point's cell ring by ring (first 3 x 3
 * cells, then a ring radius estimated from the density seen), until the k-th nearest candidate is no
 * farther than the edge of the square read: every centroid outside the square is farther than that,
 * so the answer is exact. The radius limit ends the search too; without a radius it is bounded only
 * by the grid's extent, which is why the API walks the pyramid instead.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { seeded } from "../../src/lib/random.ts";
import { LEVELS, type Level } from "../../src/wilayah/codes.ts";
import { GRID_CELL, GRID_SQL } from "../../src/wilayah/geo/geometry.ts";
import { POINT_FANOUT, POINT_TOP, POINT_CELL as PYRAMID_CELL } from "../../src/wilayah/nearby/grid.ts";
import { isMain, root, SEED_DIR } from "../lib.ts";
import { kelurahanBoundarySql } from "./boundaries.ts";

const EARTH_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Flat centroid grid cell size per level (degrees); kecamatan and kelurahan as in GRID_CELL. */
export const POINT_CELL: Record<Level, number> = { provinsi: 2, kabupaten: 0.5, kecamatan: GRID_CELL.kecamatan, kelurahan: GRID_CELL.kelurahan };

export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const h = Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lng2 - lng1) * RAD) / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Great-circle distance from a point to the edge of the square of cells rows r-R..r+R, columns
 * c-R..c+R: the nearest of its two parallels (along the meridian) and its two meridians (R asin(sin dλ cos φ)).
 */
export function coveredKm(lat: number, lng: number, row: number, col: number, ring: number, size: number): number {
  const south = GRID_SQL.originLat + (row - ring) * size;
  const north = GRID_SQL.originLat + (row + ring + 1) * size;
  const west = GRID_SQL.originLng + (col - ring) * size;
  const east = GRID_SQL.originLng + (col + ring + 1) * size;
  const toMeridian = (dLng: number) => EARTH_KM * Math.asin(Math.min(1, Math.abs(Math.sin(dLng * RAD)) * Math.cos(lat * RAD)));
  return Math.min(EARTH_KM * (lat - south) * RAD, EARTH_KM * (north - lat) * RAD, toMeridian(lng - west), toMeridian(east - lng));
}

/** Cell key ranges (row * 10000 + column) of the ring cells between `inner` (exclusive; -1: none) and `outer`. */
export function ringSpans(row: number, col: number, inner: number, outer: number): [number, number][] {
  const spans: [number, number][] = [];
  for (let r = row - outer; r <= row + outer; r++) {
    if (inner >= 0 && r >= row - inner && r <= row + inner) {
      spans.push([r * 10_000 + col - outer, r * 10_000 + col - inner - 1], [r * 10_000 + col + inner + 1, r * 10_000 + col + outer]);
    } else spans.push([r * 10_000 + col - outer, r * 10_000 + col + outer]);
  }
  return spans.filter(([lo, hi]) => lo <= hi);
}

export type Candidate = { id: string; lat: number; lng: number };
/** `complete`: the rows are every centroid of the level (a table read whole), so no ring needs reading. */
export type Fetch = (level: Level, spans: [number, number][]) => { rows: Candidate[]; rowsRead: number; complete?: boolean };
export type NearbyAnswer = { items: (Candidate & { km: number })[]; rowsRead: number; queries: number };

/**
 * The search's steps (compared in docs/nearby-method.md; the environment overrides them for that
 * comparison only): the first square is 3 x 3 cells.
 */
const FIRST_RING = Number(process.env.FIRST ?? 1);
const GROWTH = Number(process.env.GROWTH ?? 2);
const EMPTY_GROWTH = Number(process.env.EMPTY ?? 3);

const byDistance = (a: { km: number; id: string }, b: { km: number; id: string }) => a.km - b.km || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The expanding search (see the file comment). `cell`: the grid's cell size for the level. */
export function nearby(fetch: Fetch, level: Level, cell: number, lat: number, lng: number, limit: number, radiusKm: number): NearbyAnswer {
  const row = Math.floor((lat - GRID_SQL.originLat) / cell);
  const col = Math.floor((lng - GRID_SQL.originLng) / cell);
  const seen = new Map<string, Candidate & { km: number }>();
  let rowsRead = 0;
  let queries = 0;
  let inner = -1;
  let ring = FIRST_RING;
  // The ring whose square reaches past the radius everywhere (1 degree >= 110 km north-south; east-west at most 1/cos 11.5°).
  // ... and never past the ring that covers the grid's whole extent (12° S-7° N, 94°-142° E) from the point.
  const extent = Math.max(row, Math.ceil(19 / cell) - row, col, Math.ceil(48 / cell) - col) + 1;
  const maxRing = Math.min(extent, Math.ceil(radiusKm / (111.19 * cell * Math.cos(12 * RAD))));
  for (;;) {
    const got = fetch(level, ringSpans(row, col, inner, ring));
    rowsRead += got.rowsRead;
    queries++;
    for (const c of got.rows) if (!seen.has(c.id)) seen.set(c.id, { ...c, km: haversineKm(lat, lng, c.lat, c.lng) });
    const covered = coveredKm(lat, lng, row, col, ring, cell);
    const within = [...seen.values()].filter((c) => c.km <= radiusKm).sort(byDistance);
    const sure = within.filter((c) => c.km <= covered).length;
    if (got.complete || covered >= radiusKm || sure >= limit || ring >= maxRing) {
      return { items: within.slice(0, limit), rowsRead: rowsRead + Math.min(limit, within.length), queries };
    }
    // Next ring: at least twice as far, and enough area for `limit` centroids at the density seen
    // so far (x1.5); when nothing was seen, three times as far.
    const side = (2 * ring + 1) * cell * 111.19;
    const density = seen.size / (side * side * Math.cos(lat * RAD));
    const needKm = seen.size ? 1.5 * Math.sqrt(limit / (Math.PI * density)) : 0;
    const next = seen.size ? Math.max(GROWTH * ring, Math.ceil(needKm / (cell * 111.19 * Math.cos(12 * RAD)))) : EMPTY_GROWTH * ring + 1;
    inner = ring;
    ring = Math.min(next, maxRing);
  }
}

// ---------------------------------------------------------------- the experiment

function loadDatabase(): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  for (const f of readdirSync(join(root, "migrations"))
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    for (const statement of readFileSync(join(root, "migrations", f), "utf8").split("--> statement-breakpoint")) if (statement.trim()) db.exec(statement);
  }
  const seed = readFileSync(join(root, "seed", "wilayah.sql"), "utf8")
    .split("\n")
    .filter((l) => l && !l.startsWith("--") && !/^INSERT INTO wilayah_(grams|short|search) /.test(l))
    .join("\n");
  db.exec(seed);
  db.exec(kelurahanBoundarySql(SEED_DIR));
  // The flat centroid grid, built inside SQLite like wilayah_grid (gridCell's formula; every coordinate is east and north of the origin).
  db.exec(
    `CREATE TABLE ring_point (level INTEGER NOT NULL, cell INTEGER NOT NULL, id TEXT NOT NULL, lat REAL NOT NULL, lng REAL NOT NULL, PRIMARY KEY (level, cell, id)) WITHOUT ROWID`,
  );
  LEVELS.forEach((level, i) => {
    const size = POINT_CELL[level];
    db.exec(`INSERT INTO ring_point SELECT ${i + 1}, CAST((lat - (${GRID_SQL.originLat})) / ${size} AS INTEGER) * 10000 + CAST((lng - (${GRID_SQL.originLng})) / ${size} AS INTEGER), id, lat, lng
      FROM ${level} WHERE is_active = 1 AND lat IS NOT NULL`);
  });
  return db;
}

const SPANS = "WITH spans AS (SELECT json_extract(value, '$[0]') AS lo, json_extract(value, '$[1]') AS hi FROM json_each(?))";

function fetchers(db: DatabaseSync): Record<"grid" | "ring", Fetch> {
  const point = db.prepare(`${SPANS} SELECT p.id, p.lat, p.lng FROM spans CROSS JOIN ring_point p ON p.level = ? AND p.cell BETWEEN spans.lo AND spans.hi`);
  const gridCount = db.prepare(`${SPANS} SELECT count(*) AS n FROM spans CROSS JOIN wilayah_grid g ON g.level = ? AND g.cell BETWEEN spans.lo AND spans.hi`);
  const grid = (level: Level) =>
    db.prepare(
      `${SPANS}, c AS (SELECT DISTINCT g.id FROM spans CROSS JOIN wilayah_grid g ON g.level = ? AND g.cell BETWEEN spans.lo AND spans.hi)
       SELECT r.id, r.lat, r.lng FROM c JOIN ${level} r ON r.id = c.id WHERE r.is_active = 1 AND r.lat IS NOT NULL`,
    );
  const gridByLevel = { kecamatan: grid("kecamatan"), kelurahan: grid("kelurahan") };
  const whole = (level: Level) => db.prepare(`SELECT id, lat, lng FROM ${level} WHERE is_active = 1 AND lat IS NOT NULL`);
  const wholeByLevel = { provinsi: whole("provinsi"), kabupaten: whole("kabupaten") };
  const countAll = (level: Level) => (db.prepare(`SELECT count(*) AS n FROM ${level}`).get() as { n: number }).n;
  const totals = { provinsi: countAll("provinsi"), kabupaten: countAll("kabupaten") };
  return {
    ring: (level, spans) => {
      const rows = point.all(JSON.stringify(spans), LEVELS.indexOf(level) + 1) as Candidate[];
      return { rows, rowsRead: rows.length };
    },
    grid: (level, spans) => {
      if (level === "provinsi" || level === "kabupaten") {
        // No grid for these levels: the whole table (few rows); one read answers every ring.
        return { rows: wholeByLevel[level].all() as Candidate[], rowsRead: totals[level], complete: true };
      }
      const n = LEVELS.indexOf(level) + 1;
      const json = JSON.stringify(spans);
      const rows = gridByLevel[level].all(json, n) as Candidate[];
      const scanned = (gridCount.get(json, n) as { n: number }).n;
      return { rows, rowsRead: scanned + rows.length };
    },
  };
}

/** Parent joins per answer row (src/wilayah/nearby/queries.ts NAMES): the region, then each parent. */
const NAME_ROWS: Record<Level, number> = { provinsi: 1, kabupaten: 2, kecamatan: 3, kelurahan: 4 };

/**
 * The API's best-first walk of `wilayah_point` (src/wilayah/nearby/queries.ts), step for step on the
 * table's rows: pop the nearest entry (a cell by the distance to its nearest point, a centroid by
 * its own), push a popped cell's children (cells below, or its centroids), stop at the `limit`-th
 * centroid. Rows read: the top cells, every child pushed, and the answer's name rows.
 */
function pyramid(db: DatabaseSync) {
  type PRow = { res: number; cell: number; id: string; lat: number; lng: number };
  const byLevel = LEVELS.map((_, i) => {
    const m = new Map<string, PRow[]>();
    for (const r of db.prepare("SELECT res, cell, id, lat, lng FROM wilayah_point WHERE level = ? ORDER BY res, cell, id").all(i + 1) as PRow[]) {
      const k = `${r.res}:${r.cell}`;
      const list = m.get(k);
      if (list) list.push(r);
      else m.set(k, [r]);
    }
    return m;
  });
  const range = (m: Map<string, PRow[]>, res: number, lo: number, hi: number) => {
    const out: PRow[] = [];
    for (let c = lo; c <= hi; c++) out.push(...(m.get(`${res}:${c}`) ?? []));
    return out;
  };
  const cellKm = (lat: number, lng: number, c: PRow, z: number) => {
    if (lng >= c.lng && lng <= c.lng + z) return EARTH_KM * RAD * Math.max(c.lat - lat, lat - c.lat - z, 0);
    const edge = lng < c.lng ? c.lng : c.lng + z;
    const foot = Math.max(c.lat, Math.min(c.lat + z, Math.atan(Math.tan(lat * RAD) / Math.cos((edge - lng) * RAD)) / RAD));
    return haversineKm(lat, lng, foot, edge);
  };
  return (level: Level, lat: number, lng: number, limit: number, radiusKm: number): NearbyAnswer => {
    const m = byLevel[LEVELS.indexOf(level)];
    const f = PYRAMID_CELL[level];
    const size = (res: number) => f * (1 << (Math.log2(POINT_FANOUT) * res));
    type Entry = PRow & { d: number };
    const queue: Entry[] = [];
    let rowsRead = 0;
    const push = (r: PRow) => {
      rowsRead++;
      queue.push({ ...r, d: r.res < 0 ? haversineKm(lat, lng, r.lat, r.lng) : cellKm(lat, lng, r, size(r.res)) });
    };
    for (const [k, rows] of m) if (k.startsWith(`${POINT_TOP[level]}:`)) for (const r of rows) push(r);
    const items: (Candidate & { km: number })[] = [];
    while (queue.length && items.length < limit) {
      let best = 0;
      for (let i = 1; i < queue.length; i++) {
        const a = queue[i];
        const b = queue[best];
        if (a.d < b.d || (a.d === b.d && (a.res > b.res || (a.res === b.res && a.id < b.id)))) best = i;
      }
      const e = queue.splice(best, 1)[0];
      if (e.res < 0) {
        if (e.d <= radiusKm) items.push({ id: e.id, lat: e.lat, lng: e.lng, km: e.d });
        continue;
      }
      if (e.d > radiusKm) continue;
      if (e.res === 0) for (const r of range(m, -1, e.cell, e.cell)) push(r);
      else {
        const row = Math.floor(e.cell / 10_000);
        const col = e.cell % 10_000;
        for (let i = 0; i < POINT_FANOUT; i++) {
          const first = (row * POINT_FANOUT + i) * 10_000 + col * POINT_FANOUT;
          for (const r of range(m, e.res - 1, first, first + POINT_FANOUT - 1)) push(r);
        }
      }
    }
    return { items, rowsRead: rowsRead + items.length * NAME_ROWS[level], queries: 1 };
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

function main() {
  const args = process.argv.slice(2);
  const arg = (name: string, d: number) => {
    const at = args.indexOf(name);
    return at >= 0 ? Number(args[at + 1]) : d;
  };
  const POINTS = arg("--points", 2000);
  const SELF = arg("--self", 10_000);
  let t0 = performance.now();
  const db = loadDatabase();
  console.log(`loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const fetch = fetchers(db);
  const centroids = Object.fromEntries(
    LEVELS.map((l) => [l, db.prepare(`SELECT id, lat, lng FROM ${l} WHERE is_active = 1 AND lat IS NOT NULL ORDER BY id`).all() as Candidate[]]),
  ) as Record<Level, Candidate[]>;

  // The bbox grid finds a centroid only inside its region's box: count the ones outside.
  for (const level of ["kecamatan", "kelurahan"] as const) {
    const out = db
      .prepare(
        `SELECT count(*) AS n FROM ${level} r JOIN wilayah_bbox b ON b.id = r.id WHERE r.is_active = 1 AND r.lat IS NOT NULL AND (r.lat < b.min_lat OR r.lat > b.max_lat OR r.lng < b.min_lng OR r.lng > b.max_lng)`,
      )
      .get() as { n: number };
    const noBox = db
      .prepare(
        `SELECT count(*) AS n FROM ${level} r WHERE r.is_active = 1 AND r.lat IS NOT NULL AND NOT EXISTS (SELECT 1 FROM wilayah_bbox b WHERE b.id = r.id)`,
      )
      .get() as { n: number };
    console.log(
      `${level}: ${centroids[level].length} centroids; ${out.n} outside their boundary's box, ${noBox.n} without a boundary (both invisible to the bbox grid)`,
    );
  }
  for (const [level, size] of Object.entries(POINT_CELL)) {
    const worst = db
      .prepare(`SELECT max(n) AS n, avg(n) AS a FROM (SELECT count(*) AS n FROM ring_point WHERE level = ? GROUP BY cell)`)
      .get(LEVELS.indexOf(level as Level) + 1) as { n: number; a: number };
    console.log(`ring_point ${level}: cell ${size}°, centroids per occupied cell avg ${worst.a.toFixed(1)}, max ${worst.n}`);
  }

  // Sample points: villages' own centroids moved up to ~11 km, and uniform points over the country's box (mostly sea).
  const random = seeded(20251125);
  const villages = centroids.kelurahan;
  const points: { lat: number; lng: number }[] = [];
  for (let i = 0; i < POINTS; i++) {
    if (i % 2 === 0) {
      const v = villages[Math.floor(random() * villages.length)];
      points.push({ lat: v.lat + (random() - 0.5) * 0.2, lng: v.lng + (random() - 0.5) * 0.2 });
    } else points.push({ lat: -11 + random() * 17, lng: 95 + random() * 46 });
  }

  const brute = (level: Level, lat: number, lng: number, limit: number, radiusKm: number) => {
    const all: (Candidate & { km: number })[] = [];
    for (const c of centroids[level]) {
      const km = haversineKm(lat, lng, c.lat, c.lng);
      if (km <= radiusKm) all.push({ ...c, km });
    }
    return all.sort(byDistance).slice(0, limit);
  };

  const walk = pyramid(db);
  const methods = { ...fetch, pyramid: null } as const;
  const ANY = 1e9;
  const cases: { level: Level; limit: number; radiusKm: number }[] = [
    { level: "kelurahan", limit: 10, radiusKm: 100 },
    { level: "kelurahan", limit: 50, radiusKm: 100 },
    { level: "kelurahan", limit: 10, radiusKm: 10 },
    { level: "kecamatan", limit: 10, radiusKm: 100 },
    { level: "kabupaten", limit: 10, radiusKm: 100 },
    { level: "provinsi", limit: 10, radiusKm: 100 },
    { level: "kelurahan", limit: 10, radiusKm: ANY },
    { level: "kelurahan", limit: 50, radiusKm: ANY },
    { level: "kecamatan", limit: 10, radiusKm: ANY },
    { level: "kabupaten", limit: 10, radiusKm: ANY },
    { level: "provinsi", limit: 10, radiusKm: ANY },
  ];
  for (const { level, limit, radiusKm } of cases) {
    for (const method of Object.keys(methods) as (keyof typeof methods)[]) {
      const cell = method === "ring" ? POINT_CELL[level] : level === "kecamatan" || level === "kelurahan" ? GRID_CELL[level] : 1;
      const reads: number[] = [];
      const queries: number[] = [];
      const empty = { land: 0, sea: 0 };
      let same = 0;
      let sameDistances = 0;
      t0 = performance.now();
      points.forEach((p, i) => {
        const got = method === "pyramid" ? walk(level, p.lat, p.lng, limit, radiusKm) : nearby(fetch[method], level, cell, p.lat, p.lng, limit, radiusKm);
        reads.push(got.rowsRead);
        queries.push(got.queries);
        const want = brute(level, p.lat, p.lng, limit, radiusKm);
        if (!got.items.length) empty[i % 2 === 0 ? "land" : "sea"]++;
        if (got.items.map((c) => c.id).join() === want.map((c) => c.id).join()) same++;
        if (got.items.length === want.length && got.items.every((c, j) => Math.abs(c.km - want[j].km) < 1e-9)) sameDistances++;
      });
      const ms = (performance.now() - t0) / points.length;
      console.log(
        `${level} limit ${limit} radius ${radiusKm === ANY ? "any" : `${radiusKm} km`}, ${method}: rows read p50 ${pct(reads, 50)}, p90 ${pct(reads, 90)}, p99 ${pct(reads, 99)}, max ${Math.max(...reads)}; statements p50 ${pct(queries, 50)}, max ${Math.max(...queries)}; ` +
          `same ids as brute force ${same}/${points.length}, same distances ${sameDistances}/${points.length}; none in reach ${empty.land} near-village + ${empty.sea} uniform points; ${ms.toFixed(2)} ms/point incl. brute force`,
      );
    }
  }

  // A village's own centroid: is the nearest village the village itself (the API's walk)?
  const self = seeded(7);
  const picked = new Set<number>();
  while (picked.size < Math.min(SELF, villages.length)) picked.add(Math.floor(self() * villages.length));
  let itself = 0;
  const misses: string[] = [];
  for (const i of picked) {
    const v = villages[i];
    const got = walk("kelurahan", v.lat, v.lng, 1, ANY);
    if (got.items[0]?.id === v.id) itself++;
    else misses.push(v.id);
  }
  console.log(
    `village's own centroid -> nearest village is itself: ${itself}/${picked.size} (${((100 * itself) / picked.size).toFixed(2)}%); misses: ${misses.length} ${misses.slice(0, 5).join(" ")}`,
  );
  const dup = db
    .prepare(`SELECT count(*) AS n FROM (SELECT lat, lng FROM kelurahan WHERE is_active = 1 AND lat IS NOT NULL GROUP BY lat, lng HAVING count(*) > 1)`)
    .get() as { n: number };
  console.log(`village centroids shared by two or more villages (whole list): ${dup.n}`);
  const pyramidRows = db.prepare("SELECT level, res, count(*) AS n FROM wilayah_point GROUP BY level, res ORDER BY level, res").all() as {
    level: number;
    res: number;
    n: number;
  }[];
  console.log(
    `wilayah_point rows (level/res: rows): ${pyramidRows.map((r) => `${r.level}/${r.res}: ${r.n}`).join(", ")}; total ${pyramidRows.reduce((a, r) => a + r.n, 0)}`,
  );

  // The ring search's plans: the spans drive, each one an index range (a plain JOIN lets SQLite scan the level instead).
  for (const q of [
    `${SPANS} SELECT p.id, p.lat, p.lng FROM spans CROSS JOIN ring_point p ON p.level = ? AND p.cell BETWEEN spans.lo AND spans.hi`,
    `${SPANS} SELECT count(*) AS n FROM spans CROSS JOIN wilayah_grid g ON g.level = ? AND g.cell BETWEEN spans.lo AND spans.hi`,
  ]) {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${q}`).all("[[1,2]]", 4) as { detail: string }[]).map((r) => r.detail);
    console.log(`plan: ${plan.join(" | ")}`);
  }
}

if (isMain(import.meta.url)) main();
