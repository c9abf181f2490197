/** Nearby: the regions of one level nearest a point by centroid, and which one holds the point. */
import type { RegionDb } from "../../db/client";
import { ApiError } from "../../lib/errors";
import type { Level } from "../codes";
import { reverseGeocode } from "../geo/service";
import { nearest } from "./queries";

export type NearbyItem = {
  id: string;
  name: string;
  level: Level;
  parent: string | null;
  lat: number;
  lng: number;
  distance_km: number;
  inside: boolean;
};

export type NearbyAnswer = {
  data: NearbyItem[];
  meta: {
    level: Level;
    total: number;
    radius_km: number | null;
    containing: { id: string; name: string } | null;
    without_coordinates: number;
  };
};

/** No radius: every distance (the walk's cost does not depend on it: docs/performance.md, "Nearby"). */
const ANY_DISTANCE_KM = 1e9;

/**
 * The region of `level` that holds the point, as /reverse answers it (one reverse lookup, so the
 * two endpoints agree, shared borders included). A village only when a village boundary holds the
 * point (an approximate /reverse names the nearest village, which does not hold it); kecamatan and
 * up whenever /reverse names them, which includes points within 1 km off a drawn coast. None at sea.
 */
async function containing(db: RegionDb, level: Level, lat: number, lng: number): Promise<{ id: string; name: string } | null> {
  try {
    const { data } = await reverseGeocode(db, lat, lng);
    if (level === "kelurahan") return data.approximate || !data.kelurahan ? null : { id: data.kelurahan.id, name: data.kelurahan.name };
    return data[level];
  } catch (e) {
    if (e instanceof ApiError && e.code === "NOT_FOUND") return null;
    throw e;
  }
}

/**
 * The `limit` regions of `level` whose centroid is nearest the point, nearest first (ties by id),
 * within `radiusKm` when given, each with its great-circle distance and whether it holds the point.
 * Regions without coordinates cannot be placed: they are left out and counted in meta.
 */
export async function nearby(db: RegionDb, q: { lat: number; lng: number; level: Level; limit: number; radiusKm?: number }): Promise<NearbyAnswer> {
  const [{ rows, withoutCoordinates }, inside] = await Promise.all([
    nearest(db, q.level, q.lat, q.lng, q.limit, q.radiusKm ?? ANY_DISTANCE_KM),
    containing(db, q.level, q.lat, q.lng),
  ]);
  return {
    data: rows.map((r) => ({
      id: r.id,
      name: r.name,
      level: q.level,
      parent: r.parent,
      lat: r.lat,
      lng: r.lng,
      distance_km: Math.round(r.d * 1000) / 1000,
      inside: r.id === inside?.id,
    })),
    meta: { level: q.level, total: rows.length, radius_km: q.radiusKm ?? null, containing: inside, without_coordinates: withoutCoordinates },
  };
}
