/**
 * Builds the wilayah seed (`seed/wilayah.sql` + `seed/manifest.json`, and for the Worker
 * `seed/vocabulary.json` + `seed/name-table.json`) from the npm package
 * `idn-area-data` 4.x (current list and islands) and 3.1.2 (previous list, installed as
 * `idn-area-data-v3`), plus the files in seed/sources/ (seed/sources/README.md): centroids, postal
 * codes, the 2430/2025 island moves, population and area of provinsi and kabupaten/kota, and the
 * boundaries of provinsi, kabupaten/kota and kecamatan, with every level's neighbours (computed from
 * the boundaries by scripts/seed/neighbours.ts, about 40 s). Kelurahan/desa boundaries are too large
 * to commit as SQL: scripts/seed/boundaries.ts builds and loads them from their compressed source,
 * with the village neighbours this build writes to seed/neighbours-kelurahan.csv.gz.
 *
 *   npm run seed:build                       # coordinates from seed/sources/wilayah-centroids.csv
 *   npm run seed:build -- --coords FILE.csv  # from another `code,lat,lng` CSV
 *
 * Loading the SQL twice leaves the same state: it empties the wilayah tables first.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as current from "idn-area-data";
import * as previous from "idn-area-data-v3";
import { z } from "zod";
import { LEVELS, type Level, undotted } from "../../src/wilayah/codes.ts";
import { parseDms } from "../../src/wilayah/geo/geometry.ts";
import { normalizeSearchText, TERM_SEPARATOR } from "../../src/wilayah/normalize.ts";
import { insertStatements, isMain, root } from "../lib.ts";
import { boundarySql, kelurahanBoundariesChecksum, readBoundaries, SOURCES } from "./boundary-sql.ts";
import {
  buildHistory,
  formerNames,
  historyRows,
  historySql,
  nameKey,
  orphanSuccessors,
  type Report,
  readCurated,
  readEditions,
  renderReport,
} from "./history.ts";
import { loadNameTable, nameTableJson, spellingsOf } from "./name-table.ts";
import { buildNeighbours, type NeighbourResult, neighbourSql } from "./neighbours.ts";
import { kindSpellings, loadAliases, SEARCH_INDEX_TABLES, searchIndexSql, vocabularyJson } from "./search-index.ts";
import { coverageSql, KELURAHAN_NEIGHBOURS, neighboursCsv, pointSql } from "./space-sql.ts";

/** The 2430/2025 amendment changes no region code; it moves four islands (seed/sources/wilayah-2430-island-moves.csv). */
export const DATA_VERSION = "Kepmendagri 300.2.2-2138/2025 as amended by 300.2.2-2430/2025 (idn-area-data 4.0.1)";

/** Indonesia's bounding box with a small margin (Sabang to Merauke, Miangas to Rote). */
export const BOUNDS = { latMin: -11.5, latMax: 6.5, lngMin: 94.5, lngMax: 141.5 };

type Row = {
  id: string;
  level: Level;
  name: string;
  altName: string;
  parentId: string | null;
  type?: "kabupaten" | "kota";
  isActive: 0 | 1;
  /** Search-only spellings: abbreviations, other spellings of the current name. */
  aliases: string[];
  /** Search-only: names of earlier editions (the previous list, the editions of 2015-2022b, curated former names), marked `former` when they match. */
  former: string[];
  lat: number | null;
  lng: number | null;
  postalCode: string | null;
  /** provinsi and kabupaten/kota: seed/sources/wilayah-population.csv and wilayah-area.csv */
  stats?: RegionStats;
};

export type RegionStats = { male: number | null; female: number | null; total: number | null; areaKm2: number | null };

/** Names people also use for provinces: the short forms in everyday writing. */
const PROVINCE_ALT: Record<string, { alt?: string; aliases: string[] }> = {
  "11": { aliases: ["NAD", "Nanggroe Aceh Darussalam"] },
  "12": { aliases: ["Sumut"] },
  "13": { aliases: ["Sumbar"] },
  "16": { aliases: ["Sumsel"] },
  "19": { alt: "Bangka Belitung", aliases: ["Babel"] },
  "21": { aliases: ["Kepri"] },
  "31": { alt: "DKI Jakarta", aliases: ["Jakarta", "DKI"] },
  "32": { aliases: ["Jabar"] },
  "33": { aliases: ["Jateng"] },
  "34": { alt: "DI Yogyakarta", aliases: ["Yogyakarta", "Jogja", "Jogjakarta", "Yogya", "DIY"] },
  "35": { aliases: ["Jatim"] },
  "52": { aliases: ["NTB"] },
  "53": { aliases: ["NTT"] },
  "61": { aliases: ["Kalbar"] },
  "62": { aliases: ["Kalteng"] },
  "63": { aliases: ["Kalsel"] },
  "64": { aliases: ["Kaltim"] },
  "65": { aliases: ["Kaltara"] },
  "71": { aliases: ["Sulut"] },
  "72": { aliases: ["Sulteng"] },
  "73": { aliases: ["Sulsel"] },
  "74": { aliases: ["Sultra"] },
  "76": { aliases: ["Sulbar"] },
  "82": { aliases: ["Malut"] },
};

/** Everyday names of a few kabupaten/kota beyond the name without its prefix. */
const REGENCY_ALIASES: Record<string, string[]> = {
  "34.71": ["Jogja", "Jogjakarta", "Yogya"],
};

const KABUPATEN_PREFIX = /^(Kabupaten Administrasi|Kota Administrasi|Kabupaten|Kota) /;

/** A kabupaten/kota name as the older lists write it: `KAB. X`, `KOTA ADM. X`, `KABUPATEN X`. */
const OLD_KABUPATEN_PREFIX = /^(KABUPATEN ADMINISTRASI|KOTA ADMINISTRASI|KAB\.?\s*ADM\.?|KOTA\s*ADM\.?|KABUPATEN|KAB\.?|KOTA)\s+/i;

/** How a name of an older list is searched: a kabupaten/kota as `Kabupaten X` / `Kota X` and `X` (queries spell `kab.` out the same way). */
function olderSpellings(level: Level, name: string): string[] {
  if (level !== "kabupaten") return [name];
  const m = OLD_KABUPATEN_PREFIX.exec(name);
  if (!m) return [name];
  const rest = name.slice(m[0].length);
  return [`${/^kota/i.test(m[1]) ? "Kota" : "Kabupaten"} ${rest}`, rest];
}

const LEVEL_NO = { provinsi: 1, kabupaten: 2, kecamatan: 3, kelurahan: 4 } as const;

const coordRow = z.object({
  code: z.string().regex(/^\d{2}(\.\d{2}(\.\d{2}(\.\d{4})?)?)?$/, "code must be a dotted Kemendagri code"),
  lat: z.coerce.number().finite().min(BOUNDS.latMin).max(BOUNDS.latMax),
  lng: z.coerce.number().finite().min(BOUNDS.lngMin).max(BOUNDS.lngMax),
});

/** Parses a `code,lat,lng` CSV; throws naming the first bad row (line number and content). */
export function parseCoords(csv: string): Map<string, { lat: number; lng: number }> {
  const out = new Map<string, { lat: number; lng: number }>();
  const lines = csv.split(/\r?\n/);
  const header = lines[0]?.trim().toLowerCase();
  if (header !== "code,lat,lng") throw new Error(`coordinates CSV: line 1 must be "code,lat,lng", got "${lines[0]}"`);
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "") continue;
    const [code, lat, lng, ...rest] = line.split(",");
    const parsed = coordRow.safeParse({ code, lat: lat === "" ? undefined : lat, lng: lng === "" ? undefined : lng });
    if (!parsed.success || rest.length > 0) {
      const why = parsed.success ? "too many columns" : parsed.error.issues.map((e) => `${e.path.join(".")}: ${e.message}`).join("; ");
      throw new Error(
        `coordinates CSV: line ${i + 1} ("${line}") rejected: ${why} (Indonesia is lat ${BOUNDS.latMin}..${BOUNDS.latMax}, lng ${BOUNDS.lngMin}..${BOUNDS.lngMax})`,
      );
    }
    out.set(parsed.data.code, { lat: parsed.data.lat, lng: parsed.data.lng });
  }
  return out;
}

/** Parses the `code,postal_code` CSV (seed/sources/wilayah-postal-codes.csv); throws naming a bad row. */
export function parsePostalCodes(csv: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = csv.split(/\r?\n/);
  if (lines[0]?.trim() !== "code,postal_code") throw new Error(`postal codes CSV: line 1 must be "code,postal_code", got "${lines[0]}"`);
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const [code, postal, ...rest] = line.split(",");
    if (!/^\d{2}\.\d{2}\.\d{2}\.\d{4}$/.test(code) || !/^\d{5}$/.test(postal ?? "") || rest.length) {
      throw new Error(`postal codes CSV: line ${i + 1} ("${line}") rejected: want a village code and 5 digits`);
    }
    out.set(code, postal);
  }
  return out;
}

/**
 * Population (`code,male,female,total`) and area (`code,area_km2`) of provinsi and kabupaten/kota
 * (seed/sources/wilayah-population.csv, wilayah-area.csv); throws naming a bad row.
 */
export function parseStats(populationCsv: string, areaCsv: string): Map<string, RegionStats> {
  const out = new Map<string, RegionStats>();
  const rows = (csv: string, header: string, columns: number) => {
    const lines = csv.split(/\r?\n/);
    if (lines[0]?.trim() !== header) throw new Error(`${header} CSV: unexpected header "${lines[0]}"`);
    return lines.slice(1).flatMap((line, i) => {
      if (!line.trim()) return [];
      const cells = line.trim().split(",");
      if (cells.length !== columns || !/^\d{2}(\.\d{2})?$/.test(cells[0]) || cells.slice(1).some((c) => !/^\d+(\.\d+)?$/.test(c))) {
        throw new Error(`${header} CSV: line ${i + 2} ("${line}") rejected: want a provinsi or kabupaten/kota code and ${columns - 1} numbers`);
      }
      return [cells];
    });
  };
  const get = (code: string) => {
    let stats = out.get(code);
    if (!stats) {
      stats = { male: null, female: null, total: null, areaKm2: null };
      out.set(code, stats);
    }
    return stats;
  };
  for (const [code, male, female, total] of rows(populationCsv, "code,male,female,total", 4)) {
    if (Number(male) + Number(female) !== Number(total)) throw new Error(`population CSV: ${code}: male + female is not total`);
    Object.assign(get(code), { male: Number(male), female: Number(female), total: Number(total) });
  }
  for (const [code, area] of rows(areaCsv, "code,area_km2", 2)) get(code).areaKm2 = Number(area);
  return out;
}

export type IslandRow = {
  id: string;
  name: string;
  kabupatenId: string | null;
  provinsiId: string;
  lat: number | null;
  lng: number | null;
  isPopulated: 0 | 1;
  isOutermostSmall: 0 | 1;
  isActive: 0 | 1;
  replacedBy: string | null;
};

type IslandMove = { oldCode: string; newCode: string; name: string; oldKabupaten: string; newKabupaten: string };

export function parseIslandMoves(csv: string): IslandMove[] {
  const lines = csv.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines[0]?.trim() !== "old_code,new_code,name,old_kabupaten,new_kabupaten") throw new Error("island moves CSV: unexpected header");
  return lines.slice(1).map((l) => {
    const [oldCode, newCode, name, oldKabupaten, newKabupaten] = l.trim().split(",");
    return { oldCode, newCode, name, oldKabupaten, newKabupaten };
  });
}

/**
 * idn-area-data's islands with the 2430/2025 moves applied: each moved island gets its new code
 * and regency, and its old code stays as a retired row (is_active 0) pointing at the new one.
 */
export async function buildIslands(moves: IslandMove[]): Promise<IslandRow[]> {
  const source = (await (current as unknown as { getIslands(): Promise<IslandCsvRow[]> }).getIslands()) as IslandCsvRow[];
  const byCode = new Map(source.map((x) => [x.code, x]));
  const out: IslandRow[] = [];
  const moved = new Map(moves.map((m) => [m.oldCode, m]));
  for (const m of moves) {
    const x = byCode.get(m.oldCode);
    if (!x || x.name !== m.name || x.regency_code !== m.oldKabupaten) throw new Error(`island move ${m.oldCode} (${m.name}) does not match idn-area-data`);
    if (byCode.has(m.newCode)) throw new Error(`island move: new code ${m.newCode} already exists`);
  }
  for (const x of source) {
    const c = parseDms(x.coordinate);
    if (!c) throw new Error(`island ${x.code}: coordinate "${x.coordinate}" is not degrees-minutes-seconds`);
    const base = {
      name: x.name,
      lat: c.lat,
      lng: c.lng,
      isPopulated: (x.is_populated === "1" ? 1 : 0) as 0 | 1,
      isOutermostSmall: (x.is_outermost_small === "1" ? 1 : 0) as 0 | 1,
    };
    const m = moved.get(x.code);
    const kab = x.regency_code || null;
    if (m) {
      out.push({ ...base, id: m.newCode, kabupatenId: m.newKabupaten, provinsiId: m.newKabupaten.slice(0, 2), isActive: 1, replacedBy: null });
      out.push({ ...base, id: x.code, kabupatenId: kab, provinsiId: x.code.slice(0, 2), isActive: 0, replacedBy: m.newCode });
    } else {
      out.push({ ...base, id: x.code, kabupatenId: kab, provinsiId: x.code.slice(0, 2), isActive: 1, replacedBy: null });
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

type IslandCsvRow = { code: string; regency_code: string; coordinate: string; is_populated: string; is_outermost_small: string; name: string };

const readSource = (file: string) => readFileSync(join(SOURCES, file), "utf8");

type Source = {
  getProvinces(): Promise<{ code: string; name: string }[]>;
  getRegencies(): Promise<{ code: string; province_code: string; name: string }[]>;
  getDistricts(): Promise<{ code: string; regency_code: string; name: string }[]>;
  getVillages(): Promise<{ code: string; district_code: string; name: string }[]>;
};

async function load(src: Source) {
  const [p, r, d, v] = await Promise.all([src.getProvinces(), src.getRegencies(), src.getDistricts(), src.getVillages()]);
  return {
    provinsi: p.map((x) => ({ id: x.code, name: x.name, parentId: null })),
    kabupaten: r.map((x) => ({ id: x.code, name: x.name, parentId: x.province_code })),
    kecamatan: d.map((x) => ({ id: x.code, name: x.name, parentId: x.regency_code })),
    kelurahan: v.map((x) => ({ id: x.code, name: x.name, parentId: x.district_code })),
  } satisfies Record<Level, { id: string; name: string; parentId: string | null }[]>;
}

export type SeedResult = {
  sql: string;
  /** seed/vocabulary.json (scripts/seed/search-index.ts vocabularyJson). */
  vocabulary: string;
  /** seed/name-table.json (scripts/seed/name-table.ts nameTableJson): seed/name-table.csv checked against these rows. */
  nameTable: string;
  manifest: {
    dataVersion: string;
    checksum: string;
    counts: Record<Level, { active: number; inactive: number }>;
    renamed: number;
    coordinates: { filled: number; missing: number; unknownCodes: number } | null;
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
  };
  rows: Row[];
  islands: IslandRow[];
  /** The resolution report of the region history (renderReport prints it). */
  history: Report;
  /** Retired codes of the region tables that no edition holds, and how many got a successor by name. */
  orphans: { codes: string[]; resolved: number };
  /** Every level's neighbours (the village rows go to seed/neighbours-kelurahan.csv.gz). */
  neighbours: NeighbourResult;
  /** seed/neighbours-kelurahan.csv.gz */
  kelurahanNeighboursCsv: Buffer;
};

/** `neighbours`: an already computed result (tests build the seed twice from one computation); computed when absent. */
export async function buildSeed(opts: { coordsCsv?: string; neighbours?: NeighbourResult } = {}): Promise<SeedResult> {
  const now = await load(current as Source);
  const before = await load(previous as Source);
  const coords = parseCoords(opts.coordsCsv ?? readSource("wilayah-centroids.csv"));
  const postal = parsePostalCodes(readSource("wilayah-postal-codes.csv"));
  const moves = parseIslandMoves(readSource("wilayah-2430-island-moves.csv"));
  const islands = await buildIslands(moves);
  const stats = parseStats(readSource("wilayah-population.csv"), readSource("wilayah-area.csv"));
  const neighbours = opts.neighbours ?? (await buildNeighbours());

  const rows: Row[] = [];
  let renamed = 0;
  for (const level of LEVELS) {
    const currentIds = new Set(now[level].map((x) => x.id));
    const formerById = new Map(before[level].map((x) => [x.id, x.name]));
    const retired = before[level].filter((x) => !currentIds.has(x.id));
    for (const [entries, isActive] of [
      [now[level], 1],
      [retired, 0],
    ] as const) {
      for (const x of entries) {
        const former = formerById.get(x.id);
        const aliases: string[] = [];
        const formerOnes: string[] = [];
        if (isActive && former && former.toLowerCase() !== x.name.toLowerCase()) {
          // another spelling of the same name (Tanjung Balai, Tanjungbalai) is the current name; another name is a former one
          (nameKey(LEVEL_NO[level], former) === nameKey(LEVEL_NO[level], x.name) ? aliases : formerOnes).push(former);
          renamed++;
        }
        let altName = x.name;
        let type: Row["type"];
        if (level === "provinsi") {
          const extra = PROVINCE_ALT[x.id];
          if (extra?.alt) altName = extra.alt;
          aliases.push(...(extra?.aliases ?? []));
        } else if (level === "kabupaten") {
          type = x.name.startsWith("Kota ") ? "kota" : "kabupaten";
          altName = x.name.replace(KABUPATEN_PREFIX, "");
          aliases.push(...(REGENCY_ALIASES[x.id] ?? []));
          if (former) {
            const stripped = former.replace(/^(KABUPATEN ADMINISTRASI|KOTA ADMINISTRASI|KABUPATEN|KOTA) /i, "");
            (formerOnes.includes(former) ? formerOnes : aliases).push(stripped);
          }
        }
        const c = coords?.get(x.id);
        const postalCode = level === "kelurahan" && isActive ? (postal.get(x.id) ?? null) : null;
        rows.push({
          id: x.id,
          level,
          name: x.name,
          altName,
          parentId: x.parentId,
          type,
          isActive,
          aliases,
          former: formerOnes,
          lat: c?.lat ?? null,
          lng: c?.lng ?? null,
          postalCode,
          stats: level === "provinsi" || level === "kabupaten" ? (stats.get(x.id) ?? { male: null, female: null, total: null, areaKm2: null }) : undefined,
        });
      }
    }
  }
  rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const byId = new Map(rows.map((r) => [r.id, r]));
  // Search-only spellings (scripts/seed/search-index.ts): the curated aliases of seed/aliases.csv, and kinds.
  // loadAliases refuses an id the seed does not have, so every alias finds its row.
  const aliases = loadAliases(new Set(byId.keys()));
  for (const a of aliases) byId.get(a.id)?.[a.kind === "former" ? "former" : "aliases"].push(a.alias);
  for (const r of rows) r.aliases.push(...kindSpellings(r.level, r.name, r.altName));
  // The name table (short forms, historic names) is checked against the spellings, aliases included.
  const nameRows = loadNameTable(spellingsOf(rows), new Set(aliases.map((a) => normalizeSearchText(a.alias))));
  const nameTable = nameTableJson(nameRows);

  // Region history (scripts/seed/history.ts; docs/history-method.md): the six editions of the code
  // list, each code's successors, the changes. The region tables' names are the current names.
  const history = buildHistory(readEditions(), readCurated());
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
  const unknownStats = [...stats.keys()].filter((k) => byId.get(k)?.isActive !== 1 || !byId.get(k)?.stats);
  if (unknownStats.length)
    throw new Error(`population/area CSV: ${unknownStats.length} codes are no current provinsi or kabupaten/kota, e.g. ${unknownStats[0]}`);
  const unknownPostal = [...postal.keys()].filter((k) => byId.get(k)?.isActive !== 1);
  if (unknownPostal.length) throw new Error(`postal codes CSV: ${unknownPostal.length} codes are no current village, e.g. ${unknownPostal[0]}`);
  const shapes = { provinsi: readBoundaries("provinsi"), kabupaten: readBoundaries("kabupaten"), kecamatan: readBoundaries("kecamatan") };
  for (const [level, list] of Object.entries(shapes)) {
    const unknown = list.find((b) => byId.get(b.id)?.level !== level);
    if (unknown) throw new Error(`${level} boundaries: ${unknown.id} is no ${level} of the list`);
  }
  const { sql: searchSql, vocabulary, formerTerms } = renderSql(rows, byId);
  let body = searchSql;
  body += historySql(historyTables);
  body += renderIslands(islands);
  for (const level of ["provinsi", "kabupaten", "kecamatan"] as const) body += boundarySql(level, shapes[level]);
  for (const level of ["provinsi", "kabupaten", "kecamatan"] as const) body += neighbourSql(level, neighbours[level].rows);
  // Built inside SQLite from what is loaded: the centroid grid of /nearby, then the coverage report.
  body += pointSql();
  body += coverageSql();
  const kelurahanNeighboursCsv = neighboursCsv(neighbours.kelurahan.rows);
  const checksum = createHash("sha256").update(body).digest("hex").slice(0, 16);
  const sql = `${body}INSERT OR REPLACE INTO dataset (id, version, checksum) VALUES ('wilayah', ${lit(DATA_VERSION)}, '${checksum}');\n`;

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
    history: history.report,
    orphans: { codes: orphans.map((r) => r.id), resolved: orphanLinks.length },
    neighbours,
    kelurahanNeighboursCsv,
    manifest: {
      dataVersion: DATA_VERSION,
      checksum,
      counts,
      renamed,
      coordinates: { filled, missing: rows.length - filled, unknownCodes: [...coords.keys()].filter((k) => !byId.has(k)).length },
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
        kelurahan: { checksum: kelurahanBoundariesChecksum(kelurahanNeighboursCsv) },
      },
      stats: { population: withStats.filter((r) => r.stats?.total != null).length, area: withStats.filter((r) => r.stats?.areaKm2 != null).length },
      neighbours: Object.fromEntries(LEVELS.map((l) => [l, neighbours[l].rows.length / 2])) as Record<Level, number>,
    },
  };
}

// ---------------------------------------------------------------- SQL rendering

function lit(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number") return String(v);
  return `'${v.replaceAll("'", "''")}'`;
}

/** D1 caps one statement at 100 KB: multi-row INSERTs are cut well below that. */
const MAX_STATEMENT_BYTES = 60_000;

const inserts = (table: string, columns: string[], tuples: string[]) => insertStatements(table, columns.join(", "), tuples, MAX_STATEMENT_BYTES);

const PARENT_COLUMN: Record<Level, string | null> = {
  provinsi: null,
  kabupaten: "provinsi_id",
  kecamatan: "kabupaten_id",
  kelurahan: "kecamatan_id",
};

/** SQLite's BINARY order (UTF-8 bytes, i.e. code points), which JavaScript's `<` is not for all text. */
const binary = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Search rows per statement that fills `wilayah_grams`: about 90k suffix rows each, well inside D1's per-query limits. */
const GRAMS_CHUNK = 10_000;

/** SQL: the character `c` ends a word (an ASCII character other than a-z 0-9; normalised text has no capitals). */
const endsWord = (c: string) => `(unicode(${c}) < 128 AND ${c} NOT GLOB '[a-z0-9]')`;

/**
 * `wilayah_grams` from `wilayah_search` (migrations/0006_wilayah_grams.sql says what the columns
 * mean): every position of `terms` that is not a space or a separator, its suffix up to and
 * including the end of its term, and the kind of position. Generated in SQL so the dump stays small.
 */
function gramsSql(from: number, to: number): string {
  const sep = `char(${TERM_SEPARATOR.codePointAt(0)})`;
  return `INSERT INTO wilayah_grams (s, r, k, level, is_active)
WITH RECURSIVE pos(r, terms, i, level, is_active) AS (
SELECT ord, terms, 2, level, is_active FROM wilayah_search WHERE ord BETWEEN ${from} AND ${to}
UNION ALL SELECT r, terms, i + 1, level, is_active FROM pos WHERE i < length(terms) - 1)
SELECT substr(terms, i, instr(substr(terms, i), ${sep})), r,
CASE WHEN substr(terms, i - 1, 1) = ${sep} THEN 0 WHEN ${endsWord("substr(terms, i - 1, 1)")} THEN 1 ELSE 2 END,
level, is_active FROM pos WHERE substr(terms, i, 1) NOT IN (' ', ${sep})
ON CONFLICT (s, r) DO UPDATE SET k = min(k, excluded.k);`.replaceAll("\n", " ");
}

/**
 * `wilayah_short` from `wilayah_grams` (`s` ends with the separator, so `length(s) = n + 1` is a whole
 * term of n characters): the first two characters of every word start when both are letters or
 * digits, and every 3-character substring.
 */
function shortAnswersSql(): string[] {
  return [
    `INSERT INTO wilayah_short (p, tier, r, level, is_active)
SELECT substr(s, 1, 2), min(CASE WHEN k = 0 AND length(s) = 3 THEN 0 WHEN k = 0 THEN 1 ELSE 2 END), r, level, is_active
FROM wilayah_grams WHERE k < 2 AND NOT ${endsWord("substr(s, 1, 1)")} AND NOT ${endsWord("substr(s, 2, 1)")}
GROUP BY substr(s, 1, 2), r;`,
    `INSERT INTO wilayah_short (p, tier, r, level, is_active)
SELECT substr(s, 1, 3), min(CASE WHEN k = 0 AND length(s) = 4 THEN 0 WHEN k = 0 THEN 1 WHEN k = 1 THEN 2 ELSE 3 END), r, level, is_active
FROM wilayah_grams WHERE length(s) >= 4 GROUP BY substr(s, 1, 3), r;`,
  ].map((q) => q.replaceAll("\n", " "));
}

/** A region's search spellings, normalised: its current ones, then the former ones that are not also current. */
function searchTerms(r: Row): { current: string[]; former: string[] } {
  const current = [...new Set([r.name, r.altName, ...r.aliases].map(normalizeSearchText))];
  const now = new Set(current);
  return { current, former: [...new Set(r.former.map(normalizeSearchText))].filter((t) => !now.has(t)) };
}

function renderSql(rows: Row[], byId: Map<string, Row>): { sql: string; vocabulary: string; formerTerms: number } {
  let sql = "-- Generated by scripts/seed/build.ts from idn-area-data (ODbL) and seed/sources/ (MIT, (c) 2024-2025 cahya dsn). Do not edit.\n";
  for (const table of SEARCH_INDEX_TABLES) sql += `DELETE FROM ${table};\n`;
  sql += "DELETE FROM wilayah_former;\n";
  sql += "DELETE FROM pulau;\n";
  sql += "DELETE FROM wilayah_short;\n";
  sql += "DELETE FROM wilayah_grams;\n";
  sql += "DELETE FROM wilayah_search;\n";
  for (const level of [...LEVELS].reverse()) sql += `DELETE FROM ${level};\n`;
  for (const level of LEVELS) {
    const parent = PARENT_COLUMN[level];
    const columns = [
      "id",
      "code",
      "name",
      "alt_name",
      "lat",
      "lng",
      "is_active",
      ...(parent ? [parent] : []),
      ...(level === "kabupaten" ? ["type"] : []),
      ...(level === "kelurahan" ? ["postal_code"] : []),
      ...(level === "provinsi" || level === "kabupaten" ? ["population_male", "population_female", "population_total", "area_km2"] : []),
    ];
    const tuples = rows
      .filter((r) => r.level === level)
      .map((r) => {
        const values = [lit(r.id), lit(undotted(r.id)), lit(r.name), lit(r.altName), lit(r.lat), lit(r.lng), String(r.isActive)];
        if (parent) values.push(lit(r.parentId));
        if (level === "kabupaten") values.push(lit(r.type));
        if (level === "kelurahan") values.push(lit(r.postalCode));
        if (level === "provinsi" || level === "kabupaten") values.push(lit(r.stats?.male), lit(r.stats?.female), lit(r.stats?.total), lit(r.stats?.areaKm2));
        return `(${values.join(",")})`;
      });
    sql += inserts(level, columns, tuples);
  }
  // Search rows in ranking-tie order (current regions first, then the higher level, then name, then id): `ord` is that place.
  const ranked = [...rows].sort(
    (a, b) => b.isActive - a.isActive || LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || binary(a.name, b.name) || binary(a.id, b.id),
  );
  const spellings = ranked.map(searchTerms);
  const searchTuples = ranked.map((r, i) => {
    const parents: string[] = [];
    for (let p = r.parentId ? byId.get(r.parentId) : undefined; p; p = p.parentId ? byId.get(p.parentId) : undefined) parents.push(p.name);
    const terms = [...spellings[i].current, ...spellings[i].former];
    // Delimited so "exact" and "prefix" can be told per term; normalised queries never contain the separator.
    const termText = TERM_SEPARATOR + terms.join(TERM_SEPARATOR) + TERM_SEPARATOR;
    return `(${[i + 1, lit(r.id), LEVELS.indexOf(r.level) + 1, lit(r.name), lit(r.altName), lit(parents.join(", ") || null), r.isActive, lit(termText)].join(",")})`;
  });
  sql += inserts("wilayah_search", ["ord", "id", "level", "name", "alt_name", "parent", "is_active", "terms"], searchTuples);
  const formerTuples = spellings.flatMap((t, i) =>
    t.former.length ? [`(${i + 1},${lit(TERM_SEPARATOR + t.former.join(TERM_SEPARATOR) + TERM_SEPARATOR)})`] : [],
  );
  sql += inserts("wilayah_former", ["r", "terms"], formerTuples);
  for (let from = 1; from <= ranked.length; from += GRAMS_CHUNK) sql += `${gramsSql(from, from + GRAMS_CHUNK - 1)}\n`;
  for (const statement of shortAnswersSql()) sql += `${statement}\n`;
  const indexed = ranked.map((r, i) => ({ ord: i + 1, id: r.id, level: r.level, terms: [...spellings[i].current, ...spellings[i].former] }));
  // The villages' postal codes (seed/sources/wilayah-postal-codes.csv, read once by buildSeed).
  sql += searchIndexSql(indexed, new Map(rows.filter((r) => r.postalCode !== null).map((r) => [r.id, r.postalCode as string])));
  return { sql, vocabulary: vocabularyJson(indexed), formerTerms: spellings.reduce((n, t) => n + t.former.length, 0) };
}

function renderIslands(islands: IslandRow[]): string {
  const tuples = islands.map(
    (i) =>
      `(${[lit(i.id), lit(undotted(i.id)), lit(i.name), lit(normalizeSearchText(i.name)), lit(i.kabupatenId), lit(i.provinsiId), lit(i.lat), lit(i.lng), i.isPopulated, i.isOutermostSmall, i.isActive, lit(i.replacedBy)].join(",")})`,
  );
  return inserts(
    "pulau",
    ["id", "code", "name", "name_search", "kabupaten_id", "provinsi_id", "lat", "lng", "is_populated", "is_outermost_small", "is_active", "replaced_by"],
    tuples,
  );
}

// ---------------------------------------------------------------- CLI

async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf("--coords");
  const coordsFile = at >= 0 ? args[at + 1] : undefined;
  if (at >= 0 && !coordsFile) throw new Error("--coords needs a file path");
  const outDir = join(root, "seed");
  const { sql, manifest, vocabulary, history, orphans, kelurahanNeighboursCsv, nameTable } = await buildSeed({
    coordsCsv: coordsFile ? readFileSync(coordsFile, "utf8") : undefined,
  });
  process.stdout.write(`Region history (scripts/seed/history.ts, docs/history-method.md):\n${renderReport(history)}`);
  console.log(
    `Retired codes of the region tables in no edition: ${orphans.codes.length}, ${orphans.resolved} with a successor of the same name under the same parent`,
  );
  writeFileSync(join(outDir, "wilayah.sql"), sql);
  writeFileSync(KELURAHAN_NEIGHBOURS, kelurahanNeighboursCsv);
  writeFileSync(join(outDir, "vocabulary.json"), vocabulary);
  writeFileSync(join(outDir, "name-table.json"), nameTable);
  writeFileSync(join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`seed/wilayah.sql: ${(sql.length / 1e6).toFixed(1)} MB`, JSON.stringify(manifest));
}

if (isMain(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
