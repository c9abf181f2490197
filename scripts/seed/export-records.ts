/**
 * The records a bulk export holds (scripts/seed/exports.ts) and their shape in each format: a region
 * as the API's list answers show it, a field of the CSV, a flat row of the CSV and FlatGeobuf
 * (population in three columns), a FlatGeobuf level's layer and features, and a boundary as the
 * GeoJSON /wilayah/{id}/boundary answers.
 */
import { LEVELS, type Level, undotted } from "../../src/wilayah/codes.ts";
import { csvColumns, EXPORT_COLUMNS } from "../../src/wilayah/export/files.ts";
import { decodeShape, encodeRings, type Ring, toMultiPolygon } from "../../src/wilayah/geo/geometry.ts";
import type { SeedResult } from "./build.ts";
import type { FgbColumnType, FgbFeature } from "./fgb.ts";

/** One region as the API's list answers show it (EXPORT_COLUMNS order). */
type Population = { male: number; female: number; total: number };
export type ExportRecord = Record<string, string | number | Population | null>;

const PARENT: Record<Level, string | null> = { provinsi: null, kabupaten: "provinsi_id", kecamatan: "kabupaten_id", kelurahan: "kecamatan_id" };

/** Every region of every level, active and retired (is_active 0), ordered by id as the API lists them. */
export function exportRecords(rows: SeedResult["rows"], bps: SeedResult["bps"]): Record<Level, ExportRecord[]> {
  // The newest BPS code leading to each region: as its by-id answer orders bps_codes (newest period, then lowest code).
  const newestBps = new Map<string, { code: string; period: string }>();
  for (const b of bps) {
    if (!b.currentId) continue;
    const held = newestBps.get(b.currentId);
    if (!held || b.period > held.period || (b.period === held.period && b.code < held.code)) newestBps.set(b.currentId, { code: b.code, period: b.period });
  }
  const out = Object.fromEntries(LEVELS.map((l) => [l, [] as ExportRecord[]])) as Record<Level, ExportRecord[]>;
  for (const r of rows) {
    const record: ExportRecord = { id: r.id, code: undotted(r.id), name: r.name, alt_name: r.altName, lat: r.lat, lng: r.lng, is_active: r.isActive };
    const parent = PARENT[r.level];
    if (parent) record[parent] = r.parentId;
    if (r.level === "kabupaten") record.type = r.type ?? null;
    if (r.level === "kelurahan") record.postal_code = r.postalCode;
    if (r.level !== "provinsi") record.bps_code = r.isActive ? (newestBps.get(r.id)?.code ?? null) : null;
    if (r.stats) {
      // As the API shows them (src/wilayah/regions/service.ts): density to one decimal, null when either is unknown.
      const { male, female, total, areaKm2 } = r.stats;
      record.area_km2 = areaKm2;
      record.population = male == null || female == null || total == null ? null : { male, female, total };
      record.density_per_km2 = total == null || !areaKm2 ? null : Math.round((total / areaKm2) * 10) / 10;
    }
    out[r.level].push(Object.fromEntries(EXPORT_COLUMNS[r.level].map((c) => [c, record[c] ?? null])));
  }
  for (const level of LEVELS) out[level].sort((a, b) => ((a.id as string) < (b.id as string) ? -1 : 1));
  return out;
}

/** RFC 4180: fields with a comma, a quote or a line break are quoted, quotes doubled; null is an empty field; lines end with CRLF. */
export function csvField(v: string | number | Population | null): string {
  if (v === null) return "";
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** A record's value in a flat column (CSV, FlatGeobuf): `population_male` and the like from `population`. */
export function flatCell(r: ExportRecord, c: string): string | number | null {
  if (!c.startsWith("population_")) return r[c] as string | number | null;
  const p = r.population as Population | null;
  return p ? p[c.slice("population_".length) as keyof Population] : null;
}

/** A FlatGeobuf column's type: the numbers as numbers, the rest as text (the CSV's columns, flat). */
function fgbColumnType(column: string): FgbColumnType {
  if (column.startsWith("population_")) return "long";
  if (column === "is_active") return "int";
  return ["lat", "lng", "area_km2", "density_per_km2"].includes(column) ? "double" : "string";
}

/** A level's FlatGeobuf layer: the CSV's columns and `level`, the licence in its description and metadata. */
export function fgbLayer(level: Level, meta: { total: number; export_id: string; data_version: string; license: string }) {
  return {
    name: level,
    title: `Wilayah API: ${level} boundaries (${meta.data_version})`,
    description: `Every ${level} with a known boundary, export ${meta.export_id}. Licence: ${meta.license}`,
    metadata: JSON.stringify({ export_id: meta.export_id, data_version: meta.data_version, license: meta.license }),
    columns: [...csvColumns(level), "level"].map((name) => ({ name, type: fgbColumnType(name) })),
  };
}

/** The level's regions that have a boundary, flat (as the CSV: population in three columns), each with its full boundary. */
export function fgbFeatures(level: Level, records: ExportRecord[], shapes: Map<string, Ring[]>): FgbFeature[] {
  const out: FgbFeature[] = [];
  for (const r of records) {
    const rings = shapes.get(r.id as string);
    if (!rings) continue;
    const properties: FgbFeature["properties"] = { level };
    for (const c of csvColumns(level)) properties[c] = flatCell(r, c);
    const { bbox, geometry } = geometryOf(rings);
    out.push({ bbox, geometry: geometry as FgbFeature["geometry"], properties });
  }
  return out;
}

/** The same GeoJSON geometry /wilayah/{id}/boundary answers: the stored (encoded) rings decoded, holes under their exterior ring. */
export function geometryOf(rings: Ring[]) {
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  for (const ring of rings) {
    for (const [lng, lat] of ring) {
      if (lng < minLng) minLng = lng;
      if (lng > maxLng) maxLng = lng;
      if (lat < minLat) minLat = lat;
      if (lat > maxLat) maxLat = lat;
    }
  }
  return { bbox: [minLng, minLat, maxLng, maxLat], geometry: { type: "MultiPolygon", coordinates: toMultiPolygon(decodeShape(encodeRings(rings))) } };
}
