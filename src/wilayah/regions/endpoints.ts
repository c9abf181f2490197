/** The regional data endpoints, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint, flagParam } from "../../data/endpoint";
import { pageMeta, pageParams } from "../../lib/paging";
import { LEVELS, type Level } from "../codes";
import { moreWilayahEndpoints } from "../islands/endpoints";
import { getRegion, listLevel, search } from "../search/service";
import { DATA_VERSION } from "../version";

export { DATA_VERSION };

const DAY = 86_400;

const region = {
  id: z.string().describe("Kemendagri code with dots, e.g. 32.73.09.1001"),
  code: z.string().describe("The same code without dots"),
  name: z.string(),
  alt_name: z.string().describe("Another common spelling; may equal name"),
  lat: z.number().nullable().describe("Centroid latitude (cahyadsn/wilayah_boundaries, MIT), or null when unknown"),
  lng: z.number().nullable().describe("Centroid longitude, or null when unknown"),
  is_active: z.number().int().describe("1 for codes in force, 0 for retired codes"),
};

const LEVEL_RECORD = {
  provinsi: z.object(region),
  kabupaten: z.object({ ...region, provinsi_id: z.string(), type: z.enum(["kabupaten", "kota"]) }),
  kecamatan: z.object({ ...region, kabupaten_id: z.string() }),
  kelurahan: z.object({ ...region, kecamatan_id: z.string(), postal_code: z.string().nullable().describe("Postal code (kode pos), 5 digits; null only for retired codes") }),
} as const;

/** Examples for the API document: Kelurahan Cihapit, Bandung Wetan, Kota Bandung, Jawa Barat, and its parents. */
const ID_EXAMPLE: Record<Level, string> = { provinsi: "32", kabupaten: "32.73", kecamatan: "32.73.09", kelurahan: "32.73.09.1001" };
const LIST_EXAMPLE: Record<Level, string> = { provinsi: "", kabupaten: "32", kecamatan: "32.73", kelurahan: "32.73.09" };

const PARENT_FILTER: Record<Level, { name: string; about: string } | null> = {
  provinsi: null,
  kabupaten: { name: "provinsi_id", about: "province id, e.g. 32" },
  kecamatan: { name: "kabupaten_id", about: "regency/city id, e.g. 32.73" },
  kelurahan: { name: "kecamatan_id", about: "district id, e.g. 32.73.09" },
};

const LEVEL_WORDS: Record<Level, string> = {
  provinsi: "provinces (provinsi)",
  kabupaten: "regencies and cities (kabupaten/kota)",
  kecamatan: "districts (kecamatan)",
  kelurahan: "villages (kelurahan/desa)",
};

const includeInactive = flagParam.describe("Also return codes retired by the current regulation (1/true).");

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
    description: `List Indonesian ${LEVEL_WORDS[level]} ordered by id, paged${filter ? `, optionally only those in one ${filter.about}` : ""}.`,
    example: { ...(filter ? { [filter.name]: LIST_EXAMPLE[level] } : {}), per_page: 2 },
    input,
    output: z.object({ data: z.array(LEVEL_RECORD[level]), meta: pageMeta }),
    cacheSeconds: DAY,
    version: DATA_VERSION,
    handler: (q: z.infer<typeof input>, { env }) =>
      listLevel(env, level, {
        page: q.page,
        per_page: q.per_page,
        includeInactive: q.include_inactive,
        parentId: filter ? ((q as Record<string, unknown>)[filter.name] as string | undefined) : undefined,
      }),
  });
}

function byIdEndpoint(level: Level) {
  const input = z.strictObject({ id: z.string() });
  return defineEndpoint({
    path: `/wilayah/${level}/:id`,
    tool: null, // agents use wilayah_detail, which takes an id of any level
    description: `One ${level} by id (dotted or undotted code).`,
    errors: ["NOT_FOUND"],
    example: { id: ID_EXAMPLE[level] },
    input,
    output: z.object({ data: LEVEL_RECORD[level].extend({ level: z.literal(level) }) }),
    cacheSeconds: DAY,
    version: DATA_VERSION,
    handler: (q: z.infer<typeof input>, { env }) => getRegion(env, q.id, level) as never,
  });
}

const detailInput = z.strictObject({
  id: z.string().describe("A Kemendagri code of any level, with or without dots: 32, 32.73, 32.73.09, 32.73.09.1001"),
});
const SEARCH_DESCRIPTION = [
  "Search Indonesian regions of all four levels the way people type places.",
  "Names: name, alt_name, former official names and a curated alias table (short forms such as Jabar, Kalbar, Jaksel, Tangsel; popular names such as Solo, Jogja; older names such as Ujung Pandang).",
  "Context: a region may come with any of its parents, in any order, with or without commas (gambir jakarta, jakarta gambir, coblong, kota bandung, kuta badung bali); the region whose own name matches and whose parents match the other words comes first.",
  "Administrative words are hints, not name text: kabupaten/kab/kab. and kota keep Kota Bandung apart from Kabupaten Bandung (kab garut); kecamatan/kec/kec., kelurahan/kel/kel., desa/ds, provinsi/prov put that level first (kec. coblong, kel. dago).",
  "Codes: a Kemendagri code with or without dots returns that region first (3204, 32.73.09.1001); a 5-digit postal code returns its villages (40135).",
  "Typos: a word of 4-7 letters with no exact or prefix match is read as the indexed words 1 edit away (2 edits from 8 letters; a swap of two neighbours is 1 edit): bandng finds Bandung; such matches come after every exact, prefix and word match and say fuzzy.",
  "Ranking: exact name, then name with its parents, then prefix, then word prefix, then corrected typos, then substring; provinces before regencies before districts before villages on ties.",
  "Each item names its parents (parent) and says what matched (match).",
].join(" ");

const searchInput = z.strictObject({
  q: z.string().min(2, "at least 2 characters").max(100).describe("What to look for, at least 2 characters: a name, a name with its parents (coblong bandung), with kab/kota/kec/kel/desa/prov, a code (32.73) or a postal code (40135); case and accents are ignored"),
  level: z.enum(LEVELS).optional().describe("Only this level"),
  include_inactive: includeInactive,
  ...pageParams,
});

export const wilayahEndpoints = [
  ...LEVELS.flatMap((level) => [listEndpoint(level), byIdEndpoint(level)]),
  defineEndpoint({
    path: "/wilayah/search",
    tool: "wilayah_search",
    description: SEARCH_DESCRIPTION,
    input: searchInput,
    example: { q: "bandung wetan", per_page: 3 },
    output: z.object({
      data: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          alt_name: z.string(),
          level: z.enum(LEVELS),
          parent: z.string().nullable().describe("Parent names, nearest first: Bandung Wetan, Kota Bandung, Jawa Barat"),
          is_active: z.number().int(),
          match: z
            .object({
              type: z
                .enum(["code", "postal_code", "exact", "prefix", "word", "substring"])
                .describe("How the region's own name matched: exact, prefix of a name, start of a word, inside a word; or by its code, or by a postal code of the village"),
              name: z.string().nullable().describe("The query words matched against the region's own names (normalised; after correction when fuzzy); null for codes"),
              context: z.array(z.string()).describe("Query words matched against the names of its parents (kecamatan, kabupaten/kota, provinsi)"),
              fuzzy: z.boolean().describe("True when a typo was corrected to find it"),
              corrections: z.array(z.object({ typed: z.string(), matched: z.string() })).describe("Each corrected word and the indexed word it was read as"),
            })
            .describe("Why this region matched"),
        }),
      ),
      meta: pageMeta,
    }),
    cacheSeconds: DAY,
    version: DATA_VERSION,
    handler: (q, { env }) => search(env, { q: q.q, level: q.level, includeInactive: q.include_inactive, page: q.page, per_page: q.per_page }),
  }),
  ...moreWilayahEndpoints,
  defineEndpoint({
    path: "/wilayah/:id",
    tool: "wilayah_detail",
    description: "One region of any level by its Kemendagri code (the level is told by the code's length).",
    errors: ["NOT_FOUND"],
    example: { id: "32.73.09.1001" },
    input: detailInput,
    output: z.object({
      data: z.object({
        ...region,
        level: z.enum(LEVELS),
        provinsi_id: z.string().optional(),
        kabupaten_id: z.string().optional(),
        kecamatan_id: z.string().optional(),
        type: z.enum(["kabupaten", "kota"]).optional(),
        postal_code: z.string().nullable().optional().describe("kelurahan/desa only"),
      }),
    }),
    cacheSeconds: DAY,
    version: DATA_VERSION,
    handler: (q, { env }) => getRegion(env, q.id),
  }),
];
