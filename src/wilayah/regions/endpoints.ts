/** The four region lists, by id per level, and by id of any level, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint } from "../../data/endpoint";
import { pageMeta, pageParams } from "../../lib/paging";
import { LEVELS, type Level } from "../codes";
import { bpsCodes, DAY, includeInactive, LEVEL_RECORD, regionFields, statsFields } from "../schemas";
import { includeParam, sourcesSchema } from "../sources/schemas";
import { WILAYAH_DATA } from "../version";
import { getRegion, listLevel } from "./service";

/** Filled after the cache by the reports feature (src/catalogue.ts): the regions' answers never read it themselves. */
const openReports = z
  .int()
  .positive()
  .optional()
  .describe(
    "Reports of a wrong fact about this region not yet decided (POST /wilayah/{id}/reports); absent when none. Counted from a set each server refreshes at most once a minute: up to about a minute old.",
  );

/** Examples for the API document: Kelurahan Cihapit, Bandung Wetan, Kota Bandung, Jawa Barat, and its parents. */
const ID_EXAMPLE: Record<Level, string> = { provinsi: "32", kabupaten: "32.73", kecamatan: "32.73.09", kelurahan: "32.73.09.1001" };
const LIST_EXAMPLE: Record<Level, string> = { provinsi: "", kabupaten: "32", kecamatan: "32.73", kelurahan: "32.73.09" };

const PARENT_FILTER: Record<Level, { name: string; about: string } | null> = {
  provinsi: null,
  kabupaten: { name: "provinsi_id", about: "province id, e.g. 32" },
  kecamatan: { name: "kabupaten_id", about: "regency/city id, e.g. 32.73" },
  kelurahan: { name: "kecamatan_id", about: "district id, e.g. 32.73.09" },
};

/** What a level's records hold beyond every record's id, code, name, alt_name, lat, lng and is_active. */
const LEVEL_FIELDS: Record<Level, string> = {
  provinsi: "",
  kabupaten: ", provinsi_id and type (kabupaten or kota)",
  kecamatan: ", kabupaten_id",
  kelurahan: ", kecamatan_id and postal_code",
};

const LEVEL_WORDS: Record<Level, string> = {
  provinsi: "provinces (provinsi)",
  kabupaten: "regencies and cities (kabupaten/kota)",
  kecamatan: "districts (kecamatan)",
  kelurahan: "villages (kelurahan/desa)",
};

function listEndpoint(level: Level) {
  const filter = PARENT_FILTER[level];
  const input = z.strictObject({
    ...pageParams,
    include_inactive: includeInactive,
    ...(filter ? { [filter.name]: z.string().optional().describe(`Only children of this ${filter.about}; dots optional.`) } : {}),
  });
  return defineEndpoint({
    path: `/wilayah/${level}`,
    tool: `wilayah_${level}`,
    description: `List Indonesian ${LEVEL_WORDS[level]} ordered by id, paged${filter ? `, optionally only those in one ${filter.about}` : ""}. Use it to walk a level${filter ? " or the children of one region" : ""}; to find a region by its name, search instead. Returns each region's id (the Kemendagri code), code, name, alt_name, centroid lat/lng (decimal degrees, null when unknown) and is_active${LEVEL_FIELDS[level]}, and meta (total, page, per_page, total_pages). Retired codes only with include_inactive.`,
    example: { ...(filter ? { [filter.name]: LIST_EXAMPLE[level] } : {}), per_page: 2 },
    input,
    output: z.object({ data: z.array(LEVEL_RECORD[level]), meta: pageMeta }),
    cacheSeconds: DAY,
    version: WILAYAH_DATA,
    handler: (q: z.infer<typeof input>, { reads }) =>
      listLevel(reads.db, level, {
        page: q.page,
        per_page: q.per_page,
        includeInactive: q.include_inactive,
        parentId: filter ? ((q as Record<string, unknown>)[filter.name] as string | undefined) : undefined,
      }) as never, // the record of `level` (population and area only on provinsi and kabupaten/kota); test/openapi/contract.test.ts checks answers against the output schema
  });
}

function byIdEndpoint(level: Level) {
  const input = z.strictObject({ id: z.string(), include: includeParam });
  return defineEndpoint({
    path: `/wilayah/${level}/:id`,
    tool: null, // agents use wilayah_detail, which takes an id of any level
    description: `One ${level} by its id, the Kemendagri code (dotted or undotted, e.g. ${ID_EXAMPLE[level]}). Use it when you hold a ${level} code; GET /wilayah/{id} takes a code of any level. Returns the region's record${LEVEL_FIELDS[level]}, its level and bps_codes (the statistics bureau's codes that lie in it); a retired code answers with is_active 0. With include=sources, also where each family of fields comes from (sources). Unknown id: NOT_FOUND.`,
    errors: ["NOT_FOUND"],
    example: { id: ID_EXAMPLE[level] },
    input,
    output: z.object({ data: LEVEL_RECORD[level].extend({ level: z.literal(level), bps_codes: bpsCodes, open_reports: openReports, sources: sourcesSchema }) }),
    cacheSeconds: DAY,
    version: WILAYAH_DATA,
    handler: (q: z.infer<typeof input>, { reads }) => getRegion(reads, q.id, level, { sources: q.include === "sources" }) as never,
  });
}

const detailInput = z.strictObject({
  id: z.string().describe("A Kemendagri code of any level, with or without dots: 32, 32.73, 32.73.09, 32.73.09.1001"),
  include: includeParam,
});
/** By id of any level (the level told by the code). Its path takes any one segment: it is registered last (src/catalogue.ts). */
export const detailEndpoint = defineEndpoint({
  path: "/wilayah/:id",
  tool: "wilayah_detail",
  description:
    "One region of any level by its Kemendagri code, dots optional (32, 32.73, 32.73.09, 32.73.09.1001: the level is told by the code's length). Use it to look up a code you already hold; to find a region by its name, search instead. Returns the record (id, code, name, alt_name, centroid lat/lng, is_active), its level, its parent's id, type for a kabupaten/kota, postal_code for a kelurahan/desa, and bps_codes (the BPS codes that lie in it, newest period first); a retired code answers with is_active 0. include=sources adds sources: for each family of fields (code and name, coordinates, postal code, boundary, population and area, islands, BPS codes) the dataset with its version, licence and attribution, the regulation and edition that set the code and name, and any hand correction with its basis. Unknown code: NOT_FOUND.",
  errors: ["NOT_FOUND"],
  example: { id: "32.73.09.1001" },
  input: detailInput,
  output: z.object({
    data: z.object({
      ...regionFields,
      level: z.enum(LEVELS),
      provinsi_id: z.string().optional(),
      kabupaten_id: z.string().optional(),
      kecamatan_id: z.string().optional(),
      type: z.enum(["kabupaten", "kota"]).optional(),
      postal_code: z.string().nullable().optional().describe("kelurahan/desa only"),
      population: statsFields.population.optional().describe("provinsi and kabupaten/kota only; the source states no reference date"),
      area_km2: statsFields.area_km2.optional().describe("provinsi and kabupaten/kota only"),
      density_per_km2: statsFields.density_per_km2.optional().describe("provinsi and kabupaten/kota only"),
      bps_codes: bpsCodes,
      open_reports: openReports,
      sources: sourcesSchema,
    }),
  }),
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (q, { reads }) => getRegion(reads, q.id, undefined, { sources: q.include === "sources" }),
});

export const regionEndpoints = LEVELS.flatMap((level) => [listEndpoint(level), byIdEndpoint(level)]);
