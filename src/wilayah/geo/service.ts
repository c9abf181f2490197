/** Boundaries and reverse geocoding: rules only (which region answers, what is not found). */

import type { RegionDb } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { type Level, levelOf, toDottedId } from "../codes";
import { decodeShape, shapeContains, shapeDistanceKm, toMultiPolygon } from "./geometry";
import { candidateVillages, findBbox, findShape, nearbyKecamatan, type PlaceRow, regionName, type ShapeRow } from "./queries";

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
