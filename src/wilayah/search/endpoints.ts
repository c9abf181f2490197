/** Search across the four levels, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint } from "../../data/endpoint";
import { pageMeta, pageParams } from "../../lib/paging";
import { LEVELS } from "../codes";
import { DAY, includeInactive } from "../schemas";
import { WILAYAH_DATA } from "../version";
import { search } from "./service";

const SEARCH_DESCRIPTION = [
  "Search Indonesian regions of all four levels the way people type places.",
  "Names: name, alt_name, names of earlier editions of the code list since 2015 (marked former in match; current regions first on ties), former official names and a curated alias table (short forms such as Jabar, Kalbar, Jaksel, Tangsel; popular names such as Solo, Jogja; older names such as Ujung Pandang).",
  "Context: a region may come with any of its parents, in any order, with or without commas (gambir jakarta, jakarta gambir, coblong, kota bandung, kuta badung bali); the region whose own name matches and whose parents match the other words comes first.",
  "Administrative words are hints, not name text: kabupaten/kab/kab. and kota keep Kota Bandung apart from Kabupaten Bandung (kab garut); kecamatan/kec/kec., kelurahan/kel/kel., desa/ds, provinsi/prov put that level first (kec. coblong, kel. dago).",
  "Codes: a Kemendagri code with or without dots returns that region first (3204, 32.73.09.1001); a 5-digit postal code returns its villages (40135); a BPS (statistics bureau) code of 4, 7 or 10 digits returns the region it lies in, as a code match (3273190).",
  "Names as people write them: compounds apart or together (pematang siantar finds Kota Pematangsiantar, padangpanjang Kota Padang Panjang), short forms (tg pinang, sby, kab bdg), the spelling before 1972 (soerabaja, tjirebon) and colonial names (buitenzorg, fort de kock) are read as the official words and rank like the query typed that way; match.reading says which reading found a region.",
  "Typos: a word of 4-7 letters with no exact or prefix match is read as the indexed words 1 edit away (2 edits from 8 letters; a swap of two neighbours is 1 edit): bandng finds Bandung; such matches come after every exact, prefix and word match and say fuzzy. A query of several words that finds nothing at all is tried with each word corrected in turn, even a word that is a name elsewhere, then as a name followed by the kabupaten/kota or provinsi it is in, compared with that region's kecamatan and villages (kujang kediri finds Kunjang, Kabupaten Kediri; fuzzy).",
  "Ranking: exact name, then name with its parents, then prefix, then word prefix (each as typed or as read), then corrected typos, then substring; provinces before regencies before districts before villages on ties.",
  "Each item names its parents (parent) and says what matched (match).",
].join(" ");

const searchInput = z.strictObject({
  q: z
    .string()
    .min(2, "at least 2 characters")
    .max(100)
    .describe(
      "What to look for, at least 2 characters: a name (also as people write it: tg pinang, soerabaja, bukit tinggi), a name with its parents (coblong bandung), with kab/kota/kec/kel/desa/prov, a code (32.73) or a postal code (40135); case and accents are ignored",
    ),
  level: z.enum(LEVELS).optional().describe("Only this level"),
  include_inactive: includeInactive,
  ...pageParams,
});

export const searchEndpoint = defineEndpoint({
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
              .describe(
                "How the region's own name matched: exact, prefix of a name, start of a word, inside a word; or by its code, or by a postal code of the village",
              ),
            name: z
              .string()
              .nullable()
              .describe("The query words matched against the region's own names (normalised; after correction when fuzzy); null for codes"),
            context: z.array(z.string()).describe("Query words matched against the names of its parents (kecamatan, kabupaten/kota, provinsi)"),
            fuzzy: z.boolean().describe("True when a typo was corrected to find it"),
            corrections: z.array(z.object({ typed: z.string(), matched: z.string() })).describe("Each corrected word and the indexed word it was read as"),
            former: z.boolean().describe("True when only a name of an earlier edition of the code list matched (Mamuju Utara finds Kabupaten Pasangkayu)"),
            reading: z
              .object({
                kind: z
                  .enum(["spacing", "spelling", "abbreviation", "historic"])
                  .describe(
                    "spacing: compound words joined or split (bukit tinggi -> bukittinggi); spelling: the spelling before 1972 (soerabaja -> surabaya); abbreviation: a short form (tg -> tanjung, sby -> surabaya); historic: a colonial or former name (buitenzorg -> kota bogor). With several rewrites, the first of historic, abbreviation, spacing, spelling",
                  ),
                rewrites: z
                  .array(z.object({ typed: z.string(), read: z.string() }))
                  .describe("Each rewritten run of query words and what it was read as (normalised)"),
              })
              .nullable()
              .describe("The reading of the query's names that found this region; null when the query as typed (or its typo correction) did"),
          })
          .describe("Why this region matched"),
      }),
    ),
    meta: pageMeta,
  }),
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (q, { reads }) => search(reads.db, { q: q.q, level: q.level, includeInactive: q.include_inactive, page: q.page, per_page: q.per_page }),
});
