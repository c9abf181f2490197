/**
 * Kelurahan/desa boundaries: built from seed/sources/wilayah-boundaries-kelurahan.csv.gz when they
 * are loaded (83,402 villages, about 40 MB of SQL; never committed), with the village neighbours
 * (seed/neighbours-kelurahan.csv.gz, written by the seed build: about 19 MB of SQL) and the
 * coverage report's boundary count for villages. The other levels' boundaries and neighbours are
 * part of seed/wilayah.sql.
 *
 *   npm run seed:boundaries                   # local D1 (npm run dev does this when needed)
 *   npm run seed:boundaries -- --remote       # the deployed D1 (npm run deploy loads them with the seed: docs/deploy.md)
 *   npm run seed:boundaries -- --out FILE.sql # only write the SQL
 *
 * Loading twice leaves the same state (the level is emptied first). The last statement writes the
 * load marker `dataset` row `boundaries-kelurahan`, whose checksum seed/manifest.json names, so a
 * load cut short is redone by the next `npm run dev`.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isMain, root, seedDirArg, type Target, targetArgs, wrangler } from "../lib.ts";
import { neighbourSql } from "./borders.ts";
import { boundarySql, kelurahanBoundariesChecksum, readBoundaries } from "./boundary-sql.ts";
import { currentListCodes } from "./history-editions.ts";
import { coverageSql, kelurahanNeighboursFile, readKelurahanNeighbours } from "./space-sql.ts";

export const KELURAHAN_MARKER = "boundaries-kelurahan";

/**
 * The whole SQL for the kelurahan boundaries and neighbours of the seed in `seedDir`, marker last.
 * `filter` keeps only some villages (tests): their boundaries, and the borders that touch one of
 * them (both directions).
 */
export function kelurahanBoundarySql(seedDir: string, filter?: (id: string) => boolean): string {
  // A later edition's list (edition:add): the villages it no longer has keep no boundary (reverse geocoding answers current codes).
  const listed = currentListCodes(seedDir);
  const all = readBoundaries(seedDir, "kelurahan").filter((b) => !listed || listed.has(b.id));
  const list = filter ? all.filter((b) => filter(b.id)) : all;
  const neighboursFile = kelurahanNeighboursFile(seedDir);
  const neighbours = readKelurahanNeighbours(neighboursFile).filter((r) => !filter || filter(r.id) || filter(r.neighborId));
  const checksum = filter ? "partial" : kelurahanBoundariesChecksum(seedDir, readFileSync(neighboursFile));
  return `${boundarySql("kelurahan", list)}${neighbourSql("kelurahan", neighbours)}${coverageSql([["boundary", "kelurahan"]])}INSERT OR REPLACE INTO dataset (id, version, checksum) VALUES ('${KELURAHAN_MARKER}', 'wilayah_boundaries kelurahan', '${checksum}');\n`;
}

/** Writes the SQL to a file under .wrangler/ and runs it with `wrangler d1 execute`. */
export function loadKelurahanBoundaries(seedDir: string, target: Target): void {
  const file = join(root, ".wrangler", "tmp", "boundaries-kelurahan.sql");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, kelurahanBoundarySql(seedDir));
  wrangler(["d1", "execute", "DB", ...targetArgs(target), "--file", file, ...(target.remote ? ["--yes"] : [])], { capture: true });
}

function main() {
  const args = process.argv.slice(2);
  const seedDir = seedDirArg(args);
  const at = args.indexOf("--out");
  if (at >= 0) {
    if (!args[at + 1]) throw new Error("--out needs a file path");
    writeFileSync(args[at + 1], kelurahanBoundarySql(seedDir));
    return;
  }
  const t0 = Date.now();
  loadKelurahanBoundaries(seedDir, { remote: args.includes("--remote"), persistTo: process.env.WRANGLER_PERSIST_TO });
  console.log(`Kelurahan boundaries loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
}

if (isMain(import.meta.url)) {
  try {
    main();
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
