/** The coverage report, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint } from "../../data/endpoint";
import { pageMeta, pageParams } from "../../lib/paging";
import { LEVELS } from "../codes";
import { DAY } from "../schemas";
import { WILAYAH_DATA } from "../version";
import { COVERAGE_FIELDS } from "./fields";
import { getCoverage, getMissing } from "./service";

const count = (what: string) => z.int().nullable().describe(`Current regions with ${what}; null where the field does not apply to the level`);

export const coverageEndpoint = defineEndpoint({
  path: "/wilayah/coverage",
  example: {},
  tool: "wilayah_coverage",
  description:
    "What the data holds, per level: how many current regions there are and how many have coordinates, a boundary (for kelurahan/desa: the boundaries loaded), a postal code (kelurahan/desa), population and area (provinsi and kabupaten/kota), a BPS code leading to it (kabupaten/kota, kecamatan, kelurahan/desa). null: the field does not apply to the level. wilayah_coverage_missing lists the regions that lack one.",
  input: z.strictObject({}),
  output: z.object({
    data: z.array(
      z.object({
        level: z.enum(LEVELS),
        regions: z.int().describe("Current (active) regions of the level"),
        coordinates: count("a centroid (lat, lng)"),
        boundary: count("a boundary"),
        postal_code: count("a postal code"),
        population: count("a population figure"),
        area: count("an area"),
        bps_code: count("a BPS (statistics bureau) code leading to it"),
      }),
    ),
  }),
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (_q, { reads }) => getCoverage(reads.db),
});

const missingInput = z.strictObject({
  field: z
    .enum(COVERAGE_FIELDS)
    .describe(
      "What the regions lack: coordinates, boundary, postal_code (kelurahan), population or area (provinsi, kabupaten), bps_code (kabupaten, kecamatan, kelurahan)",
    ),
  level: z.enum(LEVELS).optional().describe("One level; default: every level the field applies to"),
  ...pageParams,
});

export const missingEndpoint = defineEndpoint({
  path: "/wilayah/coverage/missing",
  example: { field: "coordinates", level: "provinsi" },
  tool: "wilayah_coverage_missing",
  description:
    "The current regions that lack a field (coordinates, boundary, postal_code, population, area, bps_code), at one level or at every level the field applies to, by level then id, paged. A field that does not apply to the level is INVALID_QUERY, naming the valid ones.",
  input: missingInput,
  output: z.object({
    data: z.array(z.object({ id: z.string(), name: z.string(), level: z.enum(LEVELS) })),
    meta: pageMeta.extend({ field: z.enum(COVERAGE_FIELDS), levels: z.array(z.enum(LEVELS)) }),
  }),
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (q, { reads }) => getMissing(reads.db, q.field, q.level, { page: q.page, per_page: q.per_page }),
});
