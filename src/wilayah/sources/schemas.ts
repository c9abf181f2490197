/** The `sources` object of a by-id answer (`include=sources`) and the input that asks for it, for the endpoint declarations. */
import { z } from "zod";
import { CORRECTION_KINDS } from "./families";

export const includeParam = z
  .enum(["sources"])
  .optional()
  .describe(
    "sources: add `sources`, where each family of the record's fields comes from (dataset, version, licence, attribution, the regulation that set the code and name, hand corrections and their basis). Absent: the record alone.",
  );

const sourceRef = z.object({
  id: z.string().describe("The source's id in the sources table (GET /docs/guide/sources lists every one)"),
  kind: z.enum(["dataset", "regulation"]),
  name: z.string(),
  url: z.string().nullable(),
  version: z.string().nullable().describe("Release or commit of a dataset; the regulation's number for a regulation; null where the source states none"),
  date: z.string().nullable().describe("Commit date, or the regulation's date (YYYY-MM-DD); null where not known"),
  licence: z.string().nullable().describe("SPDX id (MIT, ODbL-1.0); null where none is stated (note says more)"),
  licence_url: z.string().nullable(),
  attribution: z.string().describe("The credit to show where this data is shown or shipped"),
  note: z.string().nullable(),
});

const correction = z.object({
  kind: z.enum(CORRECTION_KINDS).describe("curated_history, name_reading, alias, alt_name, derived_point, island_move, or report (an accepted report)"),
  value: z.string().describe("What was set by hand"),
  basis: z.string().describe("The law, usage or reason the correction cites"),
  source_file: z.string().nullable().describe("The repository file the correction is written in"),
  report_id: z.string().optional(),
  accepted_at: z.string().optional(),
});

const family = z.object({
  covers: z.array(z.string()).describe("The record fields and endpoints this family answers for"),
  sources: z.array(sourceRef),
  corrections: z.array(correction).describe("Hand corrections of this region's data in this family, each with its basis"),
  note: z.string().nullable().describe("Why this region has no value here, or how the value differs from its source"),
});

const regulation = z.object({
  edition: z.string().describe("Edition of the Kemendagri code list (GET /wilayah/editions)"),
  regulation: z.string().describe("The regulation that published it: its number"),
  date: z.string().nullable().describe("The regulation's date (YYYY-MM-DD); null where not known"),
  at_or_before: z.boolean().describe("True for the oldest edition the data holds (2015): the fact may be older"),
});

export const sourcesSchema = z
  .object({
    code_name: family.extend({
      list: regulation.describe("The edition whose list the API follows now"),
      code_set_in: regulation
        .extend({
          change: z
            .object({ kind: z.string(), from: z.string().nullable(), basis: z.string().nullable(), confidence: z.number().nullable() })
            .nullable()
            .describe("The change that brought the code (created, recoded from `from`, split, merged) and how it was established"),
        })
        .nullable()
        .describe("The first edition holding the code; null where the editions cannot tell"),
      name_set_in: regulation.nullable().describe("The edition of the last change of name (spelling and case aside); null where the editions cannot tell"),
      name_as_published: z.string().nullable().describe("The name as that edition publishes it, when the record writes it otherwise"),
      until: regulation.nullable().describe("A retired code: the last edition holding it"),
    }),
    coordinates: family.optional(),
    postal_code: family.optional().describe("kelurahan/desa"),
    boundary: family.optional(),
    population_area: family.optional().describe("provinsi and kabupaten/kota"),
    islands: family.optional().describe("provinsi and kabupaten/kota"),
    bps_codes: family.optional().describe("kabupaten/kota, kecamatan, kelurahan/desa"),
  })
  .optional()
  .describe("Only with include=sources: where each family of fields comes from (docs/api.md, Sources)");
