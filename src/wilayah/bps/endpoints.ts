/** BPS codes to today's regions, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint } from "../../data/endpoint";
import { LEVELS } from "../codes";
import { DAY } from "../schemas";
import { WILAYAH_DATA } from "../version";
import { bpsCode, MATCHES } from "./service";

const level = z.enum(LEVELS);

/** What a BPS code leads to; also an item of /wilayah/convert with from "bps". */
export const bpsFacts = {
  period: z.string().describe("The BPS period the pairing comes from: 2025_2 (BPS 2025 semester 2 with Kemendagri 2025), 2020_2 or 2017_2"),
  match: z
    .enum(MATCHES)
    .describe(
      "How today's region was reached: the period's Kemendagri code is current under the same name, or under another name (check it), or was followed through the editions; none: not established (current is null)",
    ),
  kemendagri_codes: z
    .array(z.string())
    .describe("The Kemendagri code(s) BPS paired it with in that period, as BPS gave them (usually one; several in 8 cases; none when BPS gave none)"),
};

const bpsInput = z.strictObject({
  code: z.string().max(40).describe("A BPS region code: 4 digits (kabupaten/kota), 7 (kecamatan) or 10 (kelurahan/desa); dots, spaces and dashes ignored"),
});

export const bpsEndpoint = defineEndpoint({
  path: "/wilayah/bps/:code",
  tool: "wilayah_bps",
  errors: ["NOT_FOUND"],
  example: { code: "3273190" },
  description:
    "A BPS (Badan Pusat Statistik) region code of any level (4 digits kabupaten/kota, 7 kecamatan, 10 kelurahan/desa; separators optional) to today's Kemendagri region. Use it to join statistics (census, Susenas, Podes, the Master File Desa) to region ids. Returns the level, the BPS name, the BPS period the pairing comes from, the Kemendagri code(s) of that period, how today's region was reached (match) and the current region (id, name, level; null when it could not be established: never guessed). A BPS region lies in the region it leads to; it is not always equal to it. Unknown BPS code: NOT_FOUND naming the periods held.",
  input: bpsInput,
  output: z.object({
    data: z.object({
      bps_code: z.string().describe("The BPS code, digits only"),
      level,
      bps_name: z.string().nullable().describe("As BPS spells it; null for codes of 2020_2, whose source kept only the Kemendagri name"),
      ...bpsFacts,
      kemendagri_name: z.string().nullable().describe("The Kemendagri name of that period, as the source gives it"),
      current: z.object({ id: z.string(), name: z.string(), level }).nullable().describe("Today's region the BPS region lies in; null: unmapped"),
    }),
  }),
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (q, { reads }) => bpsCode(reads, q.code),
});
