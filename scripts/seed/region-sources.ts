/** The seed's source files read and checked: coordinates, postal codes, population and area, islands (moved from build.ts). */
import * as current from "idn-area-data";
import { z } from "zod";
import { parentAt } from "../../src/wilayah/codes.ts";
import { parseDms } from "../../src/wilayah/geo/geometry.ts";

/** Indonesia's bounding box with a small margin (Sabang to Merauke, Miangas to Rote). */
export const BOUNDS = { latMin: -11.5, latMax: 6.5, lngMin: 94.5, lngMax: 141.5 };
export type RegionStats = { male: number | null; female: number | null; total: number | null; areaKm2: number | null };
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
    // An island's code begins with its kabupaten's id (11.01.40001), so its province is read the same way.
    if (m) {
      out.push({ ...base, id: m.newCode, kabupatenId: m.newKabupaten, provinsiId: parentAt(m.newKabupaten, "provinsi"), isActive: 1, replacedBy: null });
      out.push({ ...base, id: x.code, kabupatenId: kab, provinsiId: parentAt(x.code, "provinsi"), isActive: 0, replacedBy: m.newCode });
    } else {
      out.push({ ...base, id: x.code, kabupatenId: kab, provinsiId: parentAt(x.code, "provinsi"), isActive: 1, replacedBy: null });
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

type IslandCsvRow = { code: string; regency_code: string; coordinate: string; is_populated: string; is_outermost_small: string; name: string };
