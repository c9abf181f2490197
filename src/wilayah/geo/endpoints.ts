/** Reverse geocoding and boundaries, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint } from "../../data/endpoint";
import { LEVELS } from "../codes";
import { DAY, decimal, regionRef } from "../schemas";
import { WILAYAH_DATA } from "../version";
import { getBoundary, reverseGeocode } from "./service";

const boundaryInput = z.strictObject({
  id: z.string().describe("A Kemendagri code of any level, dots optional"),
  simplify: decimal("simplify", 0, 1)
    .optional()
    .describe("Douglas-Peucker tolerance in degrees (0.001 is about 110 m) for a lighter shape; default: the full boundary"),
});
const reverseInput = z.strictObject({
  lat: decimal("lat", -90, 90).describe("Latitude, decimal degrees (WGS84)"),
  lng: decimal("lng", -180, 180).describe("Longitude, decimal degrees (WGS84)"),
});
const coordinates = z.array(z.array(z.array(z.array(z.number()))));

export const reverseEndpoint = defineEndpoint({
  path: "/wilayah/reverse",
  errors: ["NOT_FOUND"],
  example: { lat: -6.9088, lng: 107.6267 },
  tool: "wilayah_reverse",
  description:
    "Reverse geocoding: which kelurahan/desa a point lies in. Use it to turn coordinates (lat, lng in decimal degrees, WGS84) into an administrative address. Returns the kelurahan/desa (id, name, postal code) with its kecamatan, kabupaten/kota and provinsi (ids and names). Where no village boundary holds the point but a kecamatan's does, answers that kecamatan and up with the nearest village, marked approximate. At sea or outside Indonesia: NOT_FOUND.",
  input: reverseInput,
  output: z.object({
    data: z.object({
      lat: z.number(),
      lng: z.number(),
      approximate: z.boolean().describe("true: no village boundary holds the point; kelurahan is the nearest village of the kecamatan that does"),
      kelurahan: z.object({ id: z.string(), name: z.string(), postal_code: z.string().nullable() }).nullable(),
      kecamatan: regionRef,
      kabupaten: regionRef,
      provinsi: regionRef,
    }),
  }),
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (q, { reads }) => reverseGeocode(reads.db, q.lat, q.lng),
});

/** `/wilayah/:id/boundary`: two segments after /wilayah, so the by-id route never takes it. */
export const boundaryEndpoint = defineEndpoint({
  path: "/wilayah/:id/boundary",
  errors: ["NOT_FOUND"],
  example: { id: "32.73.09.1001", simplify: 0.0005 },
  tool: "wilayah_boundary",
  description:
    "The boundary of a region of any level (its Kemendagri code, dots optional) as a GeoJSON Feature. Use it to draw a region on a map or to test points against it yourself; to ask which region holds a point, use reverse geocoding. Returns a Feature with bbox [west, south, east, north], properties (id, name, level) and a MultiPolygon in decimal degrees (RFC 7946 winding); simplify (a tolerance in degrees, 0.001 is about 110 m) gives a lighter shape. A region without a known boundary: NOT_FOUND.",
  input: boundaryInput,
  output: z.object({
    data: z.object({
      type: z.literal("Feature"),
      bbox: z.array(z.number()).length(4).describe("[west, south, east, north]"),
      properties: z.object({ id: z.string(), name: z.string(), level: z.enum(LEVELS) }),
      geometry: z.object({ type: z.literal("MultiPolygon"), coordinates }),
    }),
  }),
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (q, { reads }) => getBoundary(reads.db, q.id, q.simplify ?? 0) as never,
});
