/** Neighbours, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint } from "../../data/endpoint";
import { LEVELS } from "../codes";
import { DAY } from "../schemas";
import { WILAYAH_DATA } from "../version";
import { getNeighbors } from "./service";

/** `/wilayah/:id/neighbors`: two segments after /wilayah, so the by-id route never takes it. */
export const neighborsEndpoint = defineEndpoint({
  path: "/wilayah/:id/neighbors",
  errors: ["NOT_FOUND"],
  example: { id: "32.73" },
  tool: "wilayah_neighbors",
  description:
    "The regions of the same level that share a border with a region of any level, each with shared_border_km, largest first. Measured at seed time from the boundaries: outlines within 30 m of each other count as shared (villages; higher levels add up their villages' borders), and a border of at least 50 m makes neighbours, so islands across a strait are not. meta.boundary false: no boundary is known for the region, so its neighbours are unknown (data is empty); true with empty data: it borders no region (an island).",
  input: z.strictObject({ id: z.string().max(40).describe("A Kemendagri code of any level, dots optional") }),
  output: z.object({
    data: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        level: z.enum(LEVELS),
        shared_border_km: z.number().describe("Length of the common border in km (10 m steps), on the source's simplified outlines"),
      }),
    ),
    meta: z.object({
      boundary: z.boolean().describe("false: the region has no known boundary, so its neighbours are unknown (not none)"),
      total: z.int(),
    }),
  }),
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (q, { reads }) => getNeighbors(reads.db, q.id),
});
