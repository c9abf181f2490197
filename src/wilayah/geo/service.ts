/** Boundaries and reverse geocoding: rules only (which region answers, what is not found). */

import type { RegionDb } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { bpsCodesOfMany } from "../bps/queries";
import { LEVELS, type Level, levelOf, parentAt, toDottedId, undotted } from "../codes";
import { decodeShape, shapeContains, shapeDistanceKm, toMultiPolygon } from "./geometry";
import {
  candidateVillages,
  type FeatureFilter,
  type FeatureRow,
  featureRows,
  findBbox,
  findShape,
  levelExtent,
  nearbyKecamatan,
  type PlaceRow,
  regionName,
  type ShapeRow,
  shapesOf,
} from "./queries";

export type BoundaryFeature = {
  type: "Feature";
  bbox: [number, number, number, number];
  properties: { id: string; name: string; level: Level };
  geometry: { type: "MultiPolygon"; coordinates: number[][][][] };
};

/** The bounding box [west, south, east, north] of a region (dotted id), or null when it has no boundary: what a map fits its view to. */
export const regionBbox = (db: RegionDb, id: string) => findBbox(db, id);

/** The region's boundary as a GeoJSON Feature; `simplify` (degrees) thins it with Douglas-Peucker. */
export async function getBoundary(db: RegionDb, rawId: string, simplify = 0): Promise<{ data: BoundaryFeature }> {
  const id = toDottedId(rawId);
  if (!id)
    throw new ApiError("NOT_FOUND", `No region with id "${rawId}". Ids are Kemendagri codes such as 32, 32.73, 32.73.09 or 32.73.09.1001 (dots optional).`);
  const level = levelOf(id);
  const [shape, name] = await Promise.all([findShape(db, id), regionName(db, level, id)]);
  if (!name) throw new ApiError("NOT_FOUND", `No ${level} with id "${id}".`);
  if (!shape) throw new ApiError("NOT_FOUND", `No boundary is known for ${level} ${id} (${name}).`);
  return {
    data: {
      type: "Feature",
      bbox: shape.bbox,
      properties: { id, name, level },
      geometry: { type: "MultiPolygon", coordinates: toMultiPolygon(decodeShape(shape.data), simplify) },
    },
  };
}

/** The first (lowest id) of the candidates whose boundary holds the point: one answer, always the same, on shared borders. */
function containing<S extends ShapeRow>(shapes: S[], lng: number, lat: number): S | undefined {
  for (const s of shapes) if (shapeContains(decodeShape(s.data), lng, lat)) return s;
  return undefined;
}

export type ReverseAnswer = {
  lat: number;
  lng: number;
  approximate: boolean;
  kelurahan: { id: string; name: string; postal_code: string | null } | null;
  kecamatan: { id: string; name: string };
  kabupaten: { id: string; name: string };
  provinsi: { id: string; name: string };
};

function answer(lat: number, lng: number, approximate: boolean, p: PlaceRow): ReverseAnswer {
  return {
    lat,
    lng,
    approximate,
    kelurahan: p.kelurahan_id && p.kelurahan ? { id: p.kelurahan_id, name: p.kelurahan, postal_code: p.postal_code } : null,
    kecamatan: { id: p.kecamatan_id, name: p.kecamatan },
    kabupaten: { id: p.kabupaten_id, name: p.kabupaten },
    provinsi: { id: p.provinsi_id, name: p.provinsi },
  };
}

/**
 * How far outside every boundary a point may lie and still be answered (approximately): the
 * boundaries are simplified, so a point on a beach, a pier or a small islet can fall just outside
 * the drawn coastline. Beyond this it is at sea.
 */
export const COAST_TOLERANCE_KM = 1;

/**
 * The kecamatan whose boundary holds the point (the lowest id, if several), else the one within
 * COAST_TOLERANCE_KM of it (the nearest), else none; with its place and nearest village. One
 * query: the candidates of the margin box.
 */
async function kecamatanFor(db: RegionDb, lng: number, lat: number): Promise<PlaceRow | undefined> {
  const margin = COAST_TOLERANCE_KM / 111.32 / Math.max(0.2, Math.cos((lat * Math.PI) / 180));
  const shapes = (await nearbyKecamatan(db, lng, lat, margin)).map((s) => ({ place: s.place, rings: decodeShape(s.data) }));
  const inside = shapes.find((s) => shapeContains(s.rings, lng, lat));
  if (inside) return inside.place;
  let best: { place: PlaceRow; km: number } | undefined;
  for (const s of shapes) {
    const km = shapeDistanceKm(s.rings, lng, lat);
    if (km <= COAST_TOLERANCE_KM && (!best || km < best.km)) best = { place: s.place, km };
  }
  return best?.place;
}

/**
 * The kelurahan/desa whose boundary holds the point, with its parents. Where no village boundary
 * holds it but a kecamatan's does (gaps between village polygons, the villages without a known
 * boundary), or the point lies within COAST_TOLERANCE_KM outside the nearest kecamatan (simplified
 * coastlines), the kecamatan and up, with the village whose centroid is nearest, marked
 * approximate. Anywhere else (at sea, outside Indonesia): NOT_FOUND.
 */
export async function reverseGeocode(db: RegionDb, lat: number, lng: number): Promise<{ data: ReverseAnswer }> {
  const village = containing(await candidateVillages(db, lng, lat), lng, lat);
  if (village) return { data: answer(lat, lng, false, village.place) };
  const place = await kecamatanFor(db, lng, lat);
  if (!place) throw new ApiError("NOT_FOUND", `No Indonesian region contains the point ${lat}, ${lng} (at sea or outside Indonesia).`);
  return { data: answer(lat, lng, true, place) };
}

// ---------------------------------------------------------------- features (OGC API – Features, src/ogc)

/** A region as a GIS feature: flat properties (every one its level has, null when unknown), its boundary or null. */
export type RegionFeature = {
  type: "Feature";
  id: string;
  bbox?: [number, number, number, number];
  geometry: { type: "MultiPolygon"; coordinates: number[][][][] } | null;
  properties: Record<string, string | number | null>;
};

/** The properties of a level's features, in order: what its by-id answer gives, flat (population in three). */
export const FEATURE_PROPERTIES: Record<Level, readonly string[]> = {
  provinsi: ["code", "name", "alt_name", "level", "lat", "lng", "population_male", "population_female", "population_total", "area_km2", "density_per_km2"],
  kabupaten: [
    "code",
    "name",
    "alt_name",
    "level",
    "type",
    "provinsi_id",
    "lat",
    "lng",
    "bps_code",
    "bps_codes",
    "population_male",
    "population_female",
    "population_total",
    "area_km2",
    "density_per_km2",
  ],
  kecamatan: ["code", "name", "alt_name", "level", "provinsi_id", "kabupaten_id", "lat", "lng", "bps_code", "bps_codes"],
  kelurahan: ["code", "name", "alt_name", "level", "provinsi_id", "kabupaten_id", "kecamatan_id", "postal_code", "lat", "lng", "bps_code", "bps_codes"],
};

/** Density as the by-id answers give it: to one decimal, null when either figure is unknown. */
const densityOf = (total: number | null | undefined, area: number | null | undefined) => (total == null || !area ? null : Math.round((total / area) * 10) / 10);

function featureProperties(level: Level, r: FeatureRow, bps: string[]): Record<string, string | number | null> {
  const all: Record<string, string | number | null> = {
    code: undotted(r.id),
    name: r.name,
    alt_name: r.alt_name,
    level,
    type: r.type ?? null,
    postal_code: r.postal_code ?? null,
    lat: r.lat,
    lng: r.lng,
    bps_code: bps[0] ?? null,
    bps_codes: bps.length ? bps.join(",") : null,
    population_male: r.population_male ?? null,
    population_female: r.population_female ?? null,
    population_total: r.population_total ?? null,
    area_km2: r.area_km2 ?? null,
    density_per_km2: densityOf(r.population_total, r.area_km2),
  };
  // Every ancestor's code, so a layer joins on any level (codes are hierarchical: the parent is a prefix).
  for (const above of LEVELS.slice(0, LEVELS.indexOf(level))) all[`${above}_id`] = parentAt(r.id, above);
  return Object.fromEntries(FEATURE_PROPERTIES[level].map((p) => [p, all[p] ?? null]));
}

/**
 * One page of a level's current regions as features, in id order after `after`, and how many the
 * filter selects in all. `simplify` (degrees, 0: the stored precision) thins each boundary with
 * Douglas-Peucker. Two round trips: the page (with the count), then its boundaries and BPS codes.
 */
export async function featurePage(
  db: RegionDb,
  level: Level,
  filter: FeatureFilter,
  page: { after?: string; limit: number; simplify: number },
): Promise<{ matched: number; features: RegionFeature[] }> {
  const { matched, rows } = await featureRows(db, level, filter, page);
  if (!rows.length) return { matched, features: [] };
  const ids = rows.map((r) => r.id);
  const [shapes, bps] = await Promise.all([shapesOf(db, ids), level === "provinsi" ? new Map<string, string[]>() : bpsCodesOfMany(db, ids)]);
  const features = rows.map((r): RegionFeature => {
    const shape = shapes.get(r.id);
    return {
      type: "Feature",
      id: r.id,
      ...(shape ? { bbox: shape.bbox } : {}),
      geometry: shape ? { type: "MultiPolygon", coordinates: toMultiPolygon(decodeShape(shape.data), page.simplify) } : null,
      properties: featureProperties(level, r, bps.get(r.id) ?? []),
    };
  });
  return { matched, features };
}

/** The box around every boundary of a level ([west, south, east, north]), null when none is loaded. */
export const levelBounds = (db: RegionDb, level: Level) => levelExtent(db, level);
