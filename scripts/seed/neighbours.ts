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
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LEVELS, type Level } from "../../src/wilayah/codes.ts";
import { isMain, seedDirArg } from "../lib.ts";
import {
  type Borders,
  bordersOf,
  combineBorders,
  MIN_SHARED_M,
  type NeighbourRow,
  neighbourRows,
  neighbourSql,
  sharedKm,
  villageBordersAt,
} from "./borders.ts";
import { boundarySource, sourcesDir } from "./boundary-sql.ts";
import { readShapes, type Shapes } from "./shapes.ts";
import { CELL_DEG, sharedLengths } from "./shared-borders.ts";

/** Village outlines within this distance of each other are shared (see the file comment). */
export const VILLAGE_TOLERANCE_M = 30;
/** The same for the outlines of provinsi, kabupaten/kota and kecamatan, more simplified. */
export const OUTLINE_TOLERANCE_M = 100;
export const readLevelShapes = (seedDir: string, level: Level) => readShapes(boundarySource(seedDir, level));

/** Codes of the current villages: the postal-code file lists every one of them (seed/sources/README.md). */
function currentVillages(seedDir: string): string[] {
  return readFileSync(join(sourcesDir(seedDir), "wilayah-postal-codes.csv"), "utf8")
    .split("\n")
    .slice(1)
    .map((l) => l.slice(0, l.indexOf(",")))
    .filter(Boolean);
}

const PREFIX: Record<Exclude<Level, "kelurahan">, number> = { provinsi: 2, kabupaten: 5, kecamatan: 8 };

export type NeighbourResult = Record<
  Level,
  { regions: number; rows: NeighbourRow[]; seconds: number /** borders only the level's own outlines show */; outlinesOnly: number }
>;

/** Every level's neighbours (the whole computation of the seed build) from the boundaries in `seedDir`. `villages`: the kelurahan shapes, when already read. */
export async function buildNeighbours(seedDir: string, villages?: Shapes): Promise<NeighbourResult> {
  const t0 = performance.now();
  villages ??= await readLevelShapes(seedDir, "kelurahan");
  const villageBorders = bordersOf(villages, sharedLengths(villages, VILLAGE_TOLERANCE_M, CELL_DEG.kelurahan));
  const out = {
    kelurahan: { regions: villages.ids.length, rows: neighbourRows("kelurahan", villageBorders), seconds: (performance.now() - t0) / 1000, outlinesOnly: 0 },
  } as NeighbourResult;
  const drawn = new Set(villages.ids);
  const incomplete = new Set<string>();
  for (const v of currentVillages(seedDir)) if (!drawn.has(v)) for (const len of Object.values(PREFIX)) incomplete.add(v.slice(0, len));
  for (const level of ["provinsi", "kabupaten", "kecamatan"] as const) {
    const t1 = performance.now();
    const shapes = await readLevelShapes(seedDir, level);
    const own = bordersOf(shapes, sharedLengths(shapes, OUTLINE_TOLERANCE_M, CELL_DEG[level]));
    const fromVillages = villageBordersAt(villageBorders, PREFIX[level]);
    const borders = combineBorders(own, fromVillages, (id) => !incomplete.has(id));
    const rows = neighbourRows(level, borders);
    const outlinesOnly = rows.filter((r) => r.id < r.neighborId && (fromVillages.get(`${r.id} ${r.neighborId}`) ?? 0) * 1000 < MIN_SHARED_M).length;
    out[level] = { regions: shapes.ids.length, rows, seconds: (performance.now() - t1) / 1000, outlinesOnly };
  }
  return out;
}

// ---------------------------------------------------------------- command line

async function main() {
  const args = process.argv.slice(2);
  const seedDir = seedDirArg(args);
  const arg = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const levels = (arg("--level") ? [arg("--level") as Level] : [...LEVELS]).filter((l) => LEVELS.includes(l));
  if (args.includes("--sweep")) {
    // Pairs per tolerance and border threshold, and how far apart the attributed outlines lie.
    const tolerances = (arg("--tolerances") ?? "1,10,30,100,300,1000").split(",").map(Number);
    for (const level of levels) {
      const shapes = await readLevelShapes(seedDir, level);
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
    const villages = await readLevelShapes(seedDir, "kelurahan");
    const villageBorders = bordersOf(villages, sharedLengths(villages, VILLAGE_TOLERANCE_M, CELL_DEG.kelurahan));
    const drawn = new Set(villages.ids);
    const incomplete = new Set<string>();
    for (const v of currentVillages(seedDir)) if (!drawn.has(v)) for (const len of Object.values(PREFIX)) incomplete.add(v.slice(0, len));
    const complete = (key: string) => key.split(" ").every((id) => !incomplete.has(id));
    for (const level of levels.filter((l) => l !== "kelurahan") as Exclude<Level, "kelurahan">[]) {
      const shapes = await readLevelShapes(seedDir, level);
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
  const result = await buildNeighbours(seedDir);
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
