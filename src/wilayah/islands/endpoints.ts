/** Islands (pulau): the list and one by id, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint } from "../../data/endpoint";
import { pageMeta, pageParams } from "../../lib/paging";
import { DAY, includeInactive, optionalFlag } from "../schemas";
import { WILAYAH_DATA } from "../version";
import { getIsland, listIslands } from "./service";

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

const pulauInput = z.strictObject({
  kabupaten_id: z.string().max(20).optional().describe("Only islands of this regency/city, e.g. 11.10; dots optional"),
  provinsi_id: z.string().max(20).optional().describe("Only islands of this province, e.g. 11"),
  is_populated: optionalFlag("Only inhabited (1) or uninhabited (0) islands"),
  is_outermost_small: optionalFlag("Only outermost small islands (1) or the others (0)"),
  q: z.string().max(100).optional().describe("Name contains this text (at least 2 characters; case and accents ignored)"),
  include_inactive: includeInactive,
  ...pageParams,
});
const pulauIdInput = z.strictObject({ id: z.string().max(20).describe("Island code, e.g. 11.10.40081 (dots optional)") });
export const islandEndpoints = [
  defineEndpoint({
    path: "/wilayah/pulau",
    example: { kabupaten_id: "11.10", per_page: 2 },
    tool: "wilayah_pulau",
    description:
      "List Indonesian islands (pulau) ordered by id, paged, optionally filtered by regency/city, province, inhabited, outermost-small, or a name fragment (q). Use it to find the islands of an area, or an island by name. Returns each island's id (code), name, kabupaten_id (null for islands listed under the province), provinsi_id, lat/lng (decimal degrees), is_populated, is_outermost_small, is_active and replaced_by, and meta (total, page, per_page, total_pages).",
    input: pulauInput,
    output: z.object({ data: z.array(pulauRecord), meta: pageMeta }),
    cacheSeconds: DAY,
    version: WILAYAH_DATA,
    handler: (q, { reads }) =>
      listIslands(reads.db, {
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
    description:
      "One island by its code (dots optional, e.g. 11.10.40081). Use it when you hold an island code. Returns the island's record (name, kabupaten_id, provinsi_id, lat/lng, is_populated, is_outermost_small, is_active, replaced_by); codes retired by Kepmendagri 300.2.2-2430/2025 still answer, with is_active 0 and replaced_by naming the code that replaced them. Unknown code: NOT_FOUND.",
    input: pulauIdInput,
    output: z.object({ data: pulauRecord }),
    cacheSeconds: DAY,
    version: WILAYAH_DATA,
    handler: (q, { reads }) => getIsland(reads.db, q.id),
  }),
];
