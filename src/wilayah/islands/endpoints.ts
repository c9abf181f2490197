/**
 * Regional data beyond the four region lists: boundaries, reverse geocoding, postal codes, islands
 * and NIK regions. Declared once for REST and MCP (src/data-api.ts lists them through
 * `wilayahEndpoints`, before `/wilayah/:id`, whose pattern would otherwise take their paths).
 */
import { z } from "zod";
import { defineEndpoint, flagParam } from "../../data/endpoint";
import { pageMeta, pageParams } from "../../lib/paging";
import { ApiError } from "../../lib/errors";
import { LEVELS } from "../codes";
import { d1Runner } from "../geo/queries";
import { getBoundary, reverseGeocode } from "../geo/service";
import { getIsland, listIslands, nikRegion, villagesOfPostalCode } from "./service";
import { DATA_VERSION } from "../version";

const DAY = 86_400;

/** A decimal number as query text (`-6.9`, `107.61`) or a JSON number; no exponents, hex or spaces. */
const decimal = (name: string, min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^-?\d{1,3}(\.\d{1,12})?$/, `${name} must be a decimal number such as ${min < 0 ? "-6.9" : "107.6"}`)])
    .transform(Number)
    .pipe(z.number().finite().min(min, `${name} must be between ${min} and ${max}`).max(max, `${name} must be between ${min} and ${max}`));

/** Optional yes/no filter: absent means no filter. */
const optionalFlag = (about: string) =>
  z
    .union([z.boolean(), z.enum(["1", "0", "true", "false"])])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === true || v === "1" || v === "true"))
    .describe(about);

const named = z.object({ id: z.string(), name: z.string() });

const pulauRecord = z.object({
  id: z.string().describe("Island code with dots, e.g. 11.01.40001 (xx.00.xxxxx: an island of the province as a whole)"),
  code: z.string(),
  name: z.string(),
  kabupaten_id: z.string().nullable().describe("Regency/city, or null for islands listed under the province"),
  provinsi_id: z.string(),
  lat: z.number().nullable().describe("Decimal degrees, converted from the source's degrees-minutes-seconds"),
  lng: z.number().nullable(),
  is_populated: z.number().int().describe("1 when inhabited"),
  is_outermost_small: z.number().int().describe("1 for an outermost small island (pulau-pulau kecil terluar)"),
  is_active: z.number().int().describe("1 for codes in force, 0 for codes retired by Kepmendagri 300.2.2-2430/2025"),
  replaced_by: z.string().nullable().describe("For a retired code: the code that replaced it"),
});

const boundaryInput = z.strictObject({
  id: z.string().describe("A Kemendagri code of any level, dots optional"),
  simplify: decimal("simplify", 0, 1).optional().describe("Douglas-Peucker tolerance in degrees (0.001 is about 110 m) for a lighter shape; default: the full boundary"),
});
const reverseInput = z.strictObject({
  lat: decimal("lat", -90, 90).describe("Latitude, decimal degrees (WGS84)"),
  lng: decimal("lng", -180, 180).describe("Longitude, decimal degrees (WGS84)"),
});
const postalInput = z.strictObject({
  code: z.string().max(20).describe("Postal code (kode pos), 5 digits, e.g. 40114"),
  ...pageParams,
});
const pulauInput = z.strictObject({
  kabupaten_id: z.string().max(20).optional().describe("Only islands of this regency/city, e.g. 11.10; dots optional"),
  provinsi_id: z.string().max(20).optional().describe("Only islands of this province, e.g. 11"),
  is_populated: optionalFlag("Only inhabited (1) or uninhabited (0) islands"),
  is_outermost_small: optionalFlag("Only outermost small islands (1) or the others (0)"),
  q: z.string().max(100).optional().describe("Name contains this text (at least 2 characters; case and accents ignored)"),
  include_inactive: flagParam.describe("Also return codes retired by the current regulation (1/true)."),
  ...pageParams,
});
const pulauIdInput = z.strictObject({ id: z.string().max(20).describe("Island code, e.g. 11.10.40081 (dots optional)") });
const nikInput = z.strictObject({ nik: z.string().max(40).describe("A 16-digit NIK (Nomor Induk Kependudukan)") });

const coordinates = z.array(z.array(z.array(z.array(z.number()))));

export const moreWilayahEndpoints = [
  defineEndpoint({
    path: "/wilayah/reverse",
    errors: ["NOT_FOUND"],
    example: { lat: -6.9088, lng: 107.6267 },
    tool: "wilayah_reverse",
    description:
      "Reverse geocoding: the kelurahan/desa containing a point (lat, lng in decimal degrees) with its kecamatan, kabupaten/kota and provinsi (ids, names, postal code). Where no village boundary holds the point but a kecamatan's does, answers that kecamatan and up with the nearest village, marked approximate. At sea or outside Indonesia: NOT_FOUND.",
    input: reverseInput,
    output: z.object({
      data: z.object({
        lat: z.number(),
        lng: z.number(),
        approximate: z.boolean().describe("true: no village boundary holds the point; kelurahan is the nearest village of the kecamatan that does"),
        kelurahan: z.object({ id: z.string(), name: z.string(), postal_code: z.string().nullable() }).nullable(),
        kecamatan: named,
        kabupaten: named,
        provinsi: named,
      }),
    }),
    cacheSeconds: DAY,
    version: DATA_VERSION,
    handler: (q, { env }) => reverseGeocode(d1Runner(env), q.lat, q.lng),
  }),
  defineEndpoint({
    path: "/wilayah/kodepos/:code",
    errors: ["NOT_FOUND"],
    example: { code: "40114", per_page: 2 },
    tool: "wilayah_kodepos",
    description: "The kelurahan/desa that share a postal code (kode pos, 5 digits), ordered by id, paged, each with its parents' ids and names.",
    input: postalInput,
    output: z.object({
      data: z.array(
        z.object({
          id: z.string(),
          code: z.string(),
          name: z.string(),
          postal_code: z.string(),
          lat: z.number().nullable(),
          lng: z.number().nullable(),
          kecamatan_id: z.string(),
          kabupaten_id: z.string(),
          provinsi_id: z.string(),
          parent: z.string().describe("Parent names, nearest first: Bandung Wetan, Kota Bandung, Jawa Barat"),
        }),
      ),
      meta: pageMeta,
    }),
    cacheSeconds: DAY,
    version: DATA_VERSION,
    handler: (q, { env }) => villagesOfPostalCode(env, q.code, q),
  }),
  defineEndpoint({
    path: "/wilayah/pulau",
    example: { kabupaten_id: "11.10", per_page: 2 },
    tool: "wilayah_pulau",
    description:
      "List Indonesian islands (pulau) ordered by id, paged, optionally filtered by regency/city, province, inhabited, outermost-small, or a name fragment. Coordinates in decimal degrees.",
    input: pulauInput,
    output: z.object({ data: z.array(pulauRecord), meta: pageMeta }),
    cacheSeconds: DAY,
    version: DATA_VERSION,
    handler: (q, { env }) =>
      listIslands(env, {
        page: q.page,
        per_page: q.per_page,
        kabupatenId: q.kabupaten_id,
        provinsiId: q.provinsi_id,
        isPopulated: q.is_populated,
        isOutermostSmall: q.is_outermost_small,
        q: q.q,
        includeInactive: q.include_inactive,
      }),
  }),
  defineEndpoint({
    path: "/wilayah/pulau/:id",
    errors: ["NOT_FOUND"],
    tool: "wilayah_pulau_detail",
    description: "One island by its code (dots optional). Codes retired by Kepmendagri 300.2.2-2430/2025 still answer, with is_active 0 and replaced_by.",
    input: pulauIdInput,
    output: z.object({ data: pulauRecord }),
    cacheSeconds: DAY,
    version: DATA_VERSION,
    handler: (q, { env }) => getIsland(env, q.id),
  }),
  defineEndpoint({
    path: "/wilayah/nik/:nik",
    errors: ["NOT_FOUND"],
    tool: "wilayah_nik",
    description:
      "The region, date of birth and sex encoded in a 16-digit Indonesian ID number (NIK): its first six digits name the provinsi, kabupaten/kota and kecamatan where it was issued. The number is neither stored nor logged.",
    input: nikInput,
    output: z.object({
      data: z.object({
        region_code: z.string().describe("The kecamatan code the NIK encodes, dotted"),
        provinsi: named.nullable(),
        kabupaten: named.nullable().describe("null when the code is not (or no longer) a kabupaten/kota"),
        kecamatan: named.nullable().describe("null when the code is not (or no longer) a kecamatan, e.g. after a split"),
        birth_date: z.string().describe("YYYY-MM-DD; the two-digit year is read as the latest such year not in the future"),
        sex: z.enum(["male", "female"]),
      }),
    }),
    // Never cached: a cache key would hold the NIK.
    cacheSeconds: 0,
    version: DATA_VERSION,
    handler: async (q, { env }) => {
      try {
        return await nikRegion(env, q.nik);
      } catch (e) {
        if (e instanceof ApiError) throw e;
        // The app's error log names the request path, which holds the NIK: log here without it.
        console.error(JSON.stringify({ level: "error", endpoint: "/wilayah/nik/:nik", error: String(e) }));
        throw new ApiError("INTERNAL_ERROR", "Something went wrong on our side. Quote the request id when you contact support.");
      }
    },
  }),
  defineEndpoint({
    path: "/wilayah/:id/boundary",
    errors: ["NOT_FOUND"],
    example: { id: "32.73.09.1001", simplify: 0.0005 },
    tool: "wilayah_boundary",
    description:
      "The boundary of a region of any level as a GeoJSON Feature (MultiPolygon, RFC 7946 winding; properties id, name, level). Optional simplify tolerance in degrees for a lighter shape.",
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
    version: DATA_VERSION,
    handler: (q, { env }) => getBoundary(d1Runner(env), q.id, q.simplify ?? 0) as never,
  }),
];
