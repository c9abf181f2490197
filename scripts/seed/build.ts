/**
 * Builds the wilayah seed (`seed/wilayah.sql` + `seed/manifest.json`, and for the Worker
 * `seed/vocabulary.json` + `seed/name-table.json`) from the npm package
 * `idn-area-data` 4.x (current list and islands) and 3.1.2 (previous list, installed as
 * `idn-area-data-v3`), plus the files in seed/sources/ (seed/sources/README.md): centroids, postal
 * codes, the 2430/2025 island moves, population and area of provinsi and kabupaten/kota, and the
 * boundaries of provinsi, kabupaten/kota and kecamatan, with every level's neighbours (computed from
 * the boundaries by scripts/seed/neighbours.ts, about 40 s, kept between builds by
 * scripts/seed/neighbours-cache.ts). Kelurahan/desa boundaries are too large
 * to commit as SQL: scripts/seed/boundaries.ts builds and loads them from their compressed source,
 * with the village neighbours this build writes to seed/neighbours-kelurahan.csv.gz.
 *
 *   npm run seed:build                       # coordinates from seed/sources/wilayah-centroids.csv (else from the boundary)
 *   npm run seed:build -- --coords FILE.csv  # from another `code,lat,lng` CSV
 *   npm run seed:build -- --seed DIR         # the seed in DIR (a copy) instead of seed/
 *
 * The region tables' lists and names are scripts/seed/region-rows.ts.
 *
 * Last, seed/corrections.csv (accepted reports, `npm run corrections:pull`) is applied over the
 * sources: names, postal codes and coordinates (scripts/seed/corrections.ts), each recorded in
 * `wilayah_corrections` with its basis.
 *
 * Loading the SQL twice leaves the same state: it empties the wilayah tables first.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LEVELS, type Level } from "../../src/wilayah/codes.ts";
import { interiorPoint, ringsOf } from "../../src/wilayah/geo/geometry.ts";
import { normalizeSearchText } from "../../src/wilayah/normalize.ts";
import { isMain, seedDirArg } from "../lib.ts";
import { neighbourSql } from "./borders.ts";
import { boundarySql, kelurahanBoundariesChecksum, readBoundaries, sourcesDir } from "./boundary-sql.ts";
import { BPS_CROSSWALK, type BpsLevel, type BpsRow, bpsCoverage, bpsSql, parseBpsCrosswalk, resolveBps } from "./bps.ts";
import { applyCorrections, type Correction, correctionsSql, readCorrections } from "./corrections.ts";
import { buildHistory, renderReport } from "./history.ts";
import { type Edition, type HistoryInputs, readHistoryInputs } from "./history-editions.ts";
import { formerNames, type HistoryRows, historyRows, historySql, orphanSuccessors } from "./history-storage.ts";
import type { Report } from "./history-transition.ts";
import { loadNameTable, nameTableJson, readNameTableCsv, spellingsOf } from "./name-table.ts";
import type { NeighbourResult } from "./neighbours.ts";
import { cachedNeighbours } from "./neighbours-cache.ts";
import { codedNames, olderSpellings, regionLists, regionRows } from "./region-rows.ts";
import { buildIslands, type IslandRow, parseCoords, parseIslandMoves, parsePostalCodes, parseStats } from "./region-sources.ts";
import { lit, type Row, renderIslands, renderSql } from "./region-sql.ts";
import { kindSpellings, loadAliases } from "./search-index.ts";
import { loadSources, sourceNotes, sourcesSql } from "./sources.ts";
import { coverageSql, kelurahanNeighboursFile, neighboursCsv, pointSql } from "./space-sql.ts";

/**
 * The regulation the data follows, in parts: the pages say it in the reader's language ("as amended
 * by" / "sebagaimana diubah dengan"), while DATA_VERSION, the API's `x-data-version`, stays one
 * string. It is the current edition's (seed/editions.json). Edition 2025's region names come from
 * idn-area-data 4.0.1 (its `regions`); an edition taken in with `npm run edition:add` brings its
 * own. The 2430/2025 amendment changes no region code; it moves four islands
 * (seed/sources/wilayah-2430-island-moves.csv).
 */
function regulationOf(e: Edition): { decree: string; amendments: string[]; source: string } {
  return { decree: e.decree ?? e.regulation, amendments: e.amendments ?? [], source: e.regions ?? `Wilayah API edition ${e.id}` };
}
const dataVersionOf = (r: ReturnType<typeof regulationOf>) =>
  r.amendments.length ? `${r.decree} as amended by ${r.amendments.join(", ")} (${r.source})` : `${r.decree} (${r.source})`;

export type SeedResult = {
  sql: string;
  /** seed/vocabulary.json (scripts/seed/search-index.ts vocabularyJson). */
  vocabulary: string;
  /** seed/name-table.json (scripts/seed/name-table.ts nameTableJson): seed/name-table.csv checked against these rows. */
  nameTable: string;
  manifest: {
    dataVersion: string;
    /** DATA_VERSION in parts, for the pages (src/site/routes.tsx). */
    regulation: { decree: string; amendments: string[]; source: string };
    checksum: string;
    counts: Record<Level, { active: number; inactive: number }>;
    renamed: number;
    /** `derived`: of the filled ones, those whose point comes from the region's boundary (not in the centroid file). */
    coordinates: { filled: number; derived: number; missing: number; unknownCodes: number } | null;
    postalCodes: { filled: number; distinct: number };
    pulau: { active: number; inactive: number; moved: number };
    /** Region history: the editions, codes that ever existed, codes not current (with the region tables' codes no edition has), successor links, change events, former names indexed for search. */
    history: { editions: string[]; codes: number; notCurrent: number; successors: number; changes: number; formerNames: number };
    /** Boundaries per level; kelurahan's are loaded by scripts/seed/boundaries.ts, marked with `checksum`. */
    /** Boundaries per level; kelurahan's are loaded by scripts/seed/boundaries.ts, marked with `checksum` (which covers the village neighbours too). */
    boundaries: { provinsi: number; kabupaten: number; kecamatan: number; kelurahan: { checksum: string } };
    /** Provinsi and kabupaten/kota with a population figure, and with an area. */
    stats: { population: number; area: number };
    /** Borders per level (pairs of neighbours); kelurahan's are in seed/neighbours-kelurahan.csv.gz. */
    neighbours: Record<Level, number>;
    /** BPS codes per level (seed/sources/wilayah-bps-crosswalk.csv): in the file, mapped to a current region, current regions holding one. */
    bps: Record<BpsLevel, { codes: number; mapped: number; regions: number }>;
    /** seed/corrections.csv: corrections applied, and accepted reports of fields the build does not apply (listed by the CLI). */
    corrections: { applied: number; skipped: number };
  };
  rows: Row[];
  islands: IslandRow[];
  /** The BPS crosswalk's rows as loaded into wilayah_bps (the exports' bps_code). */
  bps: BpsRow[];
  /** The resolution report of the region history (renderReport prints it). */
  history: Report;
  /** The region history tables' rows, as loaded into D1 (the code mapping files are built from them: scripts/seed/mapping.ts). */
  historyTables: HistoryRows;
  /** Retired codes of the region tables that no edition holds, and how many got a successor by name. */
  orphans: { codes: string[]; resolved: number };
  /** Every level's neighbours (the village rows go to seed/neighbours-kelurahan.csv.gz). */
  neighbours: NeighbourResult;
  /** seed/neighbours-kelurahan.csv.gz */
  kelurahanNeighboursCsv: Buffer;
  /** Accepted reports the build did not apply (their field needs a person), with why. */
  skippedCorrections: (Correction & { why: string })[];
};

/** What a build may be given instead of reading it from the seed directory. */
export type BuildOptions = {
  /** Coordinates (`code,lat,lng`) instead of seed/sources/wilayah-centroids.csv. */
  coordsCsv?: string;
  /** An already computed result (tests build the seed twice from one computation); computed when absent. */
  neighbours?: NeighbourResult;
  /** Instead of seed/corrections.csv. */
  corrections?: Correction[];
  /** The editions, their lists and the curated links, instead of the seed directory's (`npm run edition:add` builds with its new edition before writing it). */
  history?: HistoryInputs;
};

/** The seed of the inputs in `seedDir` (nothing is written: `writeSeed` does). */
export async function buildSeed(seedDir: string, opts: BuildOptions = {}): Promise<SeedResult> {
  const readSource = (file: string) => readFileSync(join(sourcesDir(seedDir), file), "utf8");
  const inputs = opts.history ?? readHistoryInputs(seedDir);
  const regulation = regulationOf(inputs.editions[inputs.editions.length - 1] as Edition);
  const dataVersion = dataVersionOf(regulation);
  const { now, earlier, sourceCodes } = await regionLists(inputs);
  const coords = parseCoords(opts.coordsCsv ?? readSource("wilayah-centroids.csv"));
  const postal = parsePostalCodes(readSource("wilayah-postal-codes.csv"));
  const moves = parseIslandMoves(readSource("wilayah-2430-island-moves.csv"));
  const islands = await buildIslands(moves);
  const stats = parseStats(readSource("wilayah-population.csv"), readSource("wilayah-area.csv"));
  const neighbours = opts.neighbours ?? (await cachedNeighbours(seedDir));

  const { rows, renamed } = regionRows(now, earlier, { coords, postal, stats });

  const byId = new Map(rows.map((r) => [r.id, r]));
  // Search-only spellings (scripts/seed/search-index.ts): the curated aliases of seed/aliases.csv, and kinds.
  // loadAliases refuses an id the seed does not have, so every alias finds its row.
  const aliases = loadAliases(seedDir, new Set(byId.keys()));
  for (const a of aliases) byId.get(a.id)?.[a.kind === "former" ? "former" : "aliases"].push(a.alias);
  for (const r of rows) r.aliases.push(...kindSpellings(r.level, r.name, r.altName));
  // The name table (short forms, historic names) is checked against the spellings, aliases included.
  const nameRows = loadNameTable(spellingsOf(rows), new Set(aliases.map((a) => normalizeSearchText(a.alias))), readNameTableCsv(seedDir));
  const nameTable = nameTableJson(nameRows);

  // Region history (scripts/seed/history.ts; docs/history-method.md): the six editions of the code
  // list, each code's successors, the changes. The region tables' names are the current names.
  const history = buildHistory(inputs);
  const active = rows.filter((r) => r.isActive === 1);
  const currentNames = new Map(active.map((r) => [r.id, r.name]));
  const historyTables = historyRows(history, currentNames);
  const orphans = rows.filter((r) => r.isActive === 0 && !history.codes.has(r.id));
  const orphanLinks = orphanSuccessors(orphans, active);
  historyTables.successors = [...historyTables.successors, ...orphanLinks].sort((a, b) => (a.oldId < b.oldId ? -1 : a.oldId > b.oldId ? 1 : 0));
  // Names a current region (or the codes it succeeded) carried in earlier editions, for search. A
  // name that is the current one with a short form (`Pekan Tg. Beringin`) is no former name: the
  // name readings read it, and indexing it would make the short form a word typed queries match.
  const shortForms = new Map(nameRows.filter((e) => e.kind === "generic").map((e) => [e.typed, e.reads]));
  const spelledOut = (name: string) =>
    normalizeSearchText(name)
      .split(/[\s.]+/)
      .filter(Boolean)
      .map((w) => shortForms.get(w) ?? w)
      .join(" ");
  for (const [id, names] of formerNames(history, currentNames)) {
    const r = byId.get(id);
    if (!r) continue;
    const now = spelledOut(r.name);
    r.former.push(...names.filter((n) => spelledOut(n) !== now).flatMap((n) => olderSpellings(r.level, n)));
  }
  // The sources (postal codes, figures, boundaries, neighbours) describe edition 2025's list: what they
  // say of a code a later edition retired is left out (the edition's review report lists it), never
  // moved to its successor. With edition 2025 current this leaves nothing out.
  const stale = (id: string) => byId.get(id)?.isActive === 0 && sourceCodes.has(id);
  for (const m of [stats, postal] as Map<string, unknown>[]) for (const k of [...m.keys()]) if (stale(k)) m.delete(k);
  const unknownStats = [...stats.keys()].filter((k) => byId.get(k)?.isActive !== 1 || !byId.get(k)?.stats);
  if (unknownStats.length)
    throw new Error(`population/area CSV: ${unknownStats.length} codes are no current provinsi or kabupaten/kota, e.g. ${unknownStats[0]}`);
  const unknownPostal = [...postal.keys()].filter((k) => byId.get(k)?.isActive !== 1);
  if (unknownPostal.length) throw new Error(`postal codes CSV: ${unknownPostal.length} codes are no current village, e.g. ${unknownPostal[0]}`);
  const current = (b: { id: string }) => !stale(b.id);
  const shapes = {
    provinsi: readBoundaries(seedDir, "provinsi").filter(current),
    kabupaten: readBoundaries(seedDir, "kabupaten").filter(current),
    kecamatan: readBoundaries(seedDir, "kecamatan").filter(current),
  };
  for (const level of LEVELS) neighbours[level].rows = neighbours[level].rows.filter((r) => !stale(r.id) && !stale(r.neighborId));
  for (const [level, list] of Object.entries(shapes)) {
    const unknown = list.find((b) => byId.get(b.id)?.level !== level);
    if (unknown) throw new Error(`${level} boundaries: ${unknown.id} is no ${level} of the list`);
  }
  // A region with a boundary has a coordinate (issue 41): the centroid file lacks a few (Kalimantan
  // Selatan, kecamatan 72.06.20, 156 villages), and /nearby cannot place a region without one. Their
  // point is derived from the boundary, a point inside it (interiorPoint); the village boundaries
  // are read here only for that (they are loaded apart: scripts/seed/boundaries.ts).
  const derivedPoints: string[] = [];
  const villageShapes = readBoundaries(seedDir, "kelurahan").filter((b) => current(b) && byId.get(b.id)?.level === "kelurahan");
  for (const b of [...shapes.provinsi, ...shapes.kabupaten, ...shapes.kecamatan, ...villageShapes]) {
    const r = byId.get(b.id);
    if (!r || r.lat !== null) continue;
    const point = interiorPoint(ringsOf(b.rings));
    if (!point) continue;
    r.lat = point.lat;
    r.lng = point.lng;
    derivedPoints.push(r.id);
  }
  // Corrections from accepted reports, over everything the sources said (scripts/seed/corrections.ts).
  const corrections = applyCorrections(rows, opts.corrections ?? readCorrections(seedDir));
  const derived = derivedPoints.length;
  const { sql: searchSql, vocabulary, formerTerms } = renderSql(rows, byId);
  let body = searchSql;
  body += historySql(historyTables);
  body += renderIslands(islands);
  for (const level of ["provinsi", "kabupaten", "kecamatan"] as const) body += boundarySql(level, shapes[level]);
  for (const level of ["provinsi", "kabupaten", "kecamatan"] as const) body += neighbourSql(level, neighbours[level].rows);
  // BPS codes (src/wilayah/bps): each leads to a current region or stays unmapped.
  const successorsOf = new Map<string, string[]>();
  for (const l of historyTables.successors) successorsOf.set(l.oldId, [...(successorsOf.get(l.oldId) ?? []), l.newId]);
  const bps = resolveBps(
    parseBpsCrosswalk(readSource(BPS_CROSSWALK)),
    new Map(active.map((r) => [r.id, { name: r.name, level: r.level }])),
    (id) => successorsOf.get(id) ?? [],
    (id) => byId.has(id) || history.codes.has(id),
  );
  body += bpsSql(bps);
  body += correctionsSql(corrections.applied);
  // Provenance (src/wilayah/sources): the datasets and regulations, and the hand corrections above, each with its basis.
  const notes = sourceNotes({ curated: inputs.curated, nameReadings: nameRows, aliases, coded: codedNames(), derivedPoints, islandMoves: moves });
  body += sourcesSql(loadSources(seedDir, inputs.editions), notes);
  // Built inside SQLite from what is loaded: the centroid grid of /nearby, then the coverage report.
  body += pointSql();
  body += coverageSql();
  const kelurahanNeighboursCsv = neighboursCsv(neighbours.kelurahan.rows);
  const checksum = createHash("sha256").update(body).digest("hex").slice(0, 16);
  const sql = `${body}INSERT OR REPLACE INTO dataset (id, version, checksum) VALUES ('wilayah', ${lit(dataVersion)}, '${checksum}');\n`;

  const counts = Object.fromEntries(LEVELS.map((l) => [l, { active: 0, inactive: 0 }])) as SeedResult["manifest"]["counts"];
  for (const r of rows) counts[r.level][r.isActive ? "active" : "inactive"]++;
  const filled = rows.filter((r) => r.lat !== null).length;
  const postalCodes = rows.filter((r) => r.postalCode !== null);
  const withStats = rows.filter((r) => r.stats);
  return {
    sql,
    vocabulary,
    nameTable,
    rows,
    islands,
    bps,
    history: history.report,
    historyTables,
    orphans: { codes: orphans.map((r) => r.id), resolved: orphanLinks.length },
    neighbours,
    kelurahanNeighboursCsv,
    skippedCorrections: corrections.skipped,
    manifest: {
      dataVersion,
      regulation,
      checksum,
      counts,
      renamed,
      coordinates: { filled, derived, missing: rows.length - filled, unknownCodes: [...coords.keys()].filter((k) => !byId.has(k)).length },
      postalCodes: { filled: postalCodes.length, distinct: new Set(postalCodes.map((r) => r.postalCode)).size },
      pulau: { active: islands.filter((i) => i.isActive).length, inactive: islands.filter((i) => !i.isActive).length, moved: moves.length },
      history: {
        editions: historyTables.editions.map((e) => e.id),
        codes: history.report.totalCodes,
        notCurrent: history.report.notCurrent + orphans.length,
        successors: historyTables.successors.length,
        changes: historyTables.changes.length,
        formerNames: formerTerms,
      },
      boundaries: {
        provinsi: shapes.provinsi.length,
        kabupaten: shapes.kabupaten.length,
        kecamatan: shapes.kecamatan.length,
        kelurahan: { checksum: kelurahanBoundariesChecksum(seedDir, kelurahanNeighboursCsv) },
      },
      stats: { population: withStats.filter((r) => r.stats?.total != null).length, area: withStats.filter((r) => r.stats?.areaKm2 != null).length },
      neighbours: Object.fromEntries(LEVELS.map((l) => [l, neighbours[l].rows.length / 2])) as Record<Level, number>,
      bps: bpsCoverage(bps),
      corrections: { applied: corrections.applied.length, skipped: corrections.skipped.length },
    },
  };
}

// ---------------------------------------------------------------- writing, CLI

/** What the build writes into a seed directory (the seed's outputs; its inputs are never written here). */
export function writeSeed(seedDir: string, built: SeedResult): void {
  writeFileSync(join(seedDir, "wilayah.sql"), built.sql);
  writeFileSync(kelurahanNeighboursFile(seedDir), built.kelurahanNeighboursCsv);
  writeFileSync(join(seedDir, "vocabulary.json"), built.vocabulary);
  writeFileSync(join(seedDir, "name-table.json"), built.nameTable);
  writeFileSync(join(seedDir, "manifest.json"), `${JSON.stringify(built.manifest, null, 2)}\n`);
}

async function main() {
  const args = process.argv.slice(2);
  const seedDir = seedDirArg(args);
  const at = args.indexOf("--coords");
  const coordsFile = at >= 0 ? args[at + 1] : undefined;
  if (at >= 0 && !coordsFile) throw new Error("--coords needs a file path");
  const built = await buildSeed(seedDir, { coordsCsv: coordsFile ? readFileSync(coordsFile, "utf8") : undefined });
  const { sql, manifest, history, orphans, skippedCorrections } = built;
  process.stdout.write(`Region history (scripts/seed/history.ts, docs/history-method.md):\n${renderReport(history)}`);
  console.log(
    `Retired codes of the region tables in no edition: ${orphans.codes.length}, ${orphans.resolved} with a successor of the same name under the same parent`,
  );
  for (const c of skippedCorrections) console.log(`Correction not applied (${c.reportId}, ${c.field} of ${c.regionCode}): ${c.why}`);
  writeSeed(seedDir, built);
  console.log(`seed/wilayah.sql: ${(sql.length / 1e6).toFixed(1)} MB`, JSON.stringify(manifest));
}

if (isMain(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
