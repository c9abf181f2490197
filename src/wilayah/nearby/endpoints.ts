/** Nearby, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint } from "../../data/endpoint";
import { LEVELS } from "../codes";
import { DAY, decimal, regionRef } from "../schemas";
import { WILAYAH_DATA } from "../version";
import { nearby } from "./service";

/** The area nearby answers: Indonesia and well around it (the walk's distance bound assumes the point is within 90° of longitude of every cell). */
export const NEARBY_BOX = { latMin: -25, latMax: 20, lngMin: 80, lngMax: 160 } as const;

const nearbyInput = z.strictObject({
  lat: decimal("lat", NEARBY_BOX.latMin, NEARBY_BOX.latMax).describe(`Latitude, decimal degrees (WGS84), ${NEARBY_BOX.latMin} to ${NEARBY_BOX.latMax}`),
  lng: decimal("lng", NEARBY_BOX.lngMin, NEARBY_BOX.lngMax).describe(`Longitude, decimal degrees (WGS84), ${NEARBY_BOX.lngMin} to ${NEARBY_BOX.lngMax}`),
  level: z.enum(LEVELS).default("kelurahan").describe("Which regions: kelurahan (default), kecamatan, kabupaten or provinsi"),
  limit: z.int().min(1).max(50).default(10).describe("How many, 1 to 50 (default 10)"),
  radius_km: decimal("radius_km", 0, 100)
    .optional()
    .describe("Only regions whose centroid lies within this many km (at most 100); default: the nearest at any distance"),
});

export const nearbyEndpoint = defineEndpoint({
  path: "/wilayah/nearby",
  example: { lat: -6.9088, lng: 107.6267, level: "kelurahan", limit: 3 },
  tool: "wilayah_nearby",
  description:
    "The regions of one level (kelurahan by default, kecamatan, kabupaten, provinsi) whose centroid is nearest a point (lat, lng), nearest first, each with its great-circle distance_km and whether the point lies inside it (as wilayah_reverse answers). limit 1-50 (default 10); radius_km up to 100 keeps only those within. Regions without coordinates are left out (meta.without_coordinates counts them); meta.containing names the region of that level holding the point even when its centroid is not among the nearest.",
  input: nearbyInput,
  output: z.object({
    data: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        level: z.enum(LEVELS),
        parent: z.string().nullable().describe("Names of the parents, nearest first (null for provinsi)"),
        lat: z.number().describe("Centroid latitude"),
        lng: z.number().describe("Centroid longitude"),
        distance_km: z.number().describe("Great-circle distance from the point to the centroid (haversine, R = 6371.0088 km), to the metre"),
        inside: z.boolean().describe("The point lies inside this region (as wilayah_reverse answers)"),
      }),
    ),
    meta: z.object({
      level: z.enum(LEVELS),
      total: z.int().describe("Regions returned"),
      radius_km: z.number().nullable().describe("The radius asked for, or null (any distance)"),
      containing: regionRef
        .nullable()
        .describe(
          "The region of this level holding the point, as wilayah_reverse answers; null at sea or outside Indonesia (for kelurahan also where no village boundary holds the point)",
        ),
      without_coordinates: z.int().describe("Current regions of this level with no known centroid, which cannot be placed and are left out"),
    }),
  }),
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (q, { reads }) => nearby(reads.db, { lat: q.lat, lng: q.lng, level: q.level, limit: q.limit, radiusKm: q.radius_km }),
});
