/** Villages of a postal code, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint } from "../../data/endpoint";
import { pageMeta, pageParams } from "../../lib/paging";
import { DAY } from "../schemas";
import { WILAYAH_DATA } from "../version";
import { villagesOfPostalCode } from "./service";

const postalInput = z.strictObject({
  code: z.string().max(20).describe("Postal code (kode pos), 5 digits, e.g. 40114"),
  ...pageParams,
});
export const postalEndpoint = defineEndpoint({
  path: "/wilayah/kodepos/:code",
  errors: ["NOT_FOUND"],
  example: { code: "40114", per_page: 2 },
  tool: "wilayah_kodepos",
  description:
    "The kelurahan/desa that share a postal code (kode pos, 5 digits), ordered by id, paged. Use it to turn a postal code into places; a village's own postal code is in its record (postal_code). Returns each village's id, code, name, postal_code, centroid lat/lng, the ids of its kecamatan, kabupaten/kota and provinsi and their names (parent, nearest first), and meta. A postal code no village has: NOT_FOUND.",
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
  version: WILAYAH_DATA,
  handler: (q, { reads }) => villagesOfPostalCode(reads.db, q.code, q),
});
