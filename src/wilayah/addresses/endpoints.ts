/** Addresses: free text in, region codes out, one (GET) or up to 100 at once (POST); declared once for REST, MCP and the API document. */
import { z } from "zod";
import { defineEndpoint } from "../../data/endpoint";
import { LEVELS } from "../codes";
import { DAY, regionRef } from "../schemas";
import { WILAYAH_DATA } from "../version";
import { resolveAddresses, WARNINGS } from "./service";

/** Characters of one address. */
export const ADDRESS_MAX_LENGTH = 500;
/** Addresses per POST; each counts as one call. */
export const ADDRESS_BATCH_MAX = 100;

const addressText = z.string().min(1, "at least 1 character").max(ADDRESS_MAX_LENGTH, `at most ${ADDRESS_MAX_LENGTH} characters`);

const written = (what: string) => z.string().nullable().describe(`${what}, as written; null when absent`);

const answer = z.object({
  input: z.string().describe("The address as given"),
  components: z
    .object({
      street: written("The street with its word (Jl. Asia Afrika, Gg. Mawar); several street pieces joined by `, `"),
      house_number: written("The house number (8, 12A, 12-14, Kav. 52 -> 52)"),
      rt: written("RT (rukun tetangga) number"),
      rw: written("RW (rukun warga) number"),
      block: written("Block (Blok C2 -> C2)"),
      building: written("A building with its word (Gedung Sate, Wisma 46, Menara BCA Lt. 5)"),
      complex: written("A housing complex with its word (Perum Griya Asri, Komplek Setiabudi)"),
      dusun: written("A hamlet below the village (Dusun, Kampung, Dukuh, Lingkungan, Jorong); null when that segment is the village's own name"),
      postal_code: written("The 5-digit postal code"),
    })
    .describe("The parts of the text that are not regions, as written (the parser's, not checked against any data)"),
  kelurahan: regionRef.nullable().describe("The village (kelurahan/desa); null when the answer is above it"),
  kecamatan: regionRef.nullable(),
  kabupaten: regionRef.nullable().describe("The kabupaten/kota"),
  provinsi: regionRef.nullable(),
  postal_code: z.string().nullable().describe("The answer village's own postal code (from the data, not the text); null above village level"),
  level: z
    .enum(LEVELS)
    .nullable()
    .describe("The lowest level resolved: kelurahan, or kecamatan/kabupaten/provinsi when no village fits the text; null when nothing does"),
  confidence: z
    .number()
    .describe(
      "0 to 1: the estimated probability that the answer is right at its level, from how much better it explains the text than every rival (softmax over the scores, with a fixed score for 'none of these'). Measured on the generated quality set: of answers at 0.9 or more, over 99% were right; below 0.5, the right village was the answer or among the alternatives in most cases (docs/api.md, Addresses)",
    ),
  alternatives: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        level: z.enum(LEVELS).describe("kelurahan or kecamatan (another kecamatan of the same name, when the answer is a kecamatan)"),
        parent: z.string().nullable().describe("Parent names, nearest first"),
        confidence: z.number().describe("Its share of the same softmax as the answer's confidence"),
      }),
    )
    .describe(
      "Up to 3 other candidate villages or kecamatan, best first, those with a confidence of 0.01 or more; all inside the provinsi and kabupaten/kota the text names (Kec. Bawang, Jawa Tengah: the other kecamatan Bawang of Jawa Tengah)",
    ),
  warnings: z
    .array(z.enum(WARNINGS))
    .describe(
      "postal_code_mismatch: a postal code was written and it is not the answer village's; ambiguous: another explanation scores nearly as well (see alternatives); typo_corrected: a name was read with a typo corrected; former_name: a name was read by the name it had in an earlier edition of the code list; former_code: a region code written in the address is of an earlier edition and was read as its current successor (see matched); unknown_code: a village code written (32.73.19.1001 or ten digits) is no code of any edition since 2015, so it was ignored (a typo in it?); kabupaten_inconsistent: the kabupaten/kota written does not contain the answer (or is its namesake of the other kind: Kabupaten Bandung for a village of Kota Bandung); kecamatan_inconsistent: a kecamatan written with its level word (Kec., Kecamatan) names another kecamatan than the answer's, or the village written lies in another kecamatan than the one so written (the written kecamatan binds the answer: it is that kecamatan, the village among the alternatives); kecamatan_former: the village written was in the kecamatan written until a split moved it: the answer is today's village, matched names the kecamatan written (via former_kecamatan); kecamatan_unknown: a kecamatan written with its level word names none in the region the text names (nor one a letter or two off), so the answer stops above it, at the kabupaten/kota or provinsi",
    ),
  matched: z
    .array(
      z.object({
        level: z.enum(LEVELS),
        id: z.string().describe("The region of the answer's chain that matched"),
        text: z.string().describe("The words of the address that matched it, as written"),
        read: z.string().describe("What they were read as (normalised; a code in its dotted form)"),
        via: z
          .enum(["name", "alias", "former_name", "reading", "typo", "code", "former_code", "postal_code", "former_kecamatan"])
          .describe(
            "name: its name; alias: another spelling the search index holds (Jaksel, DKI); former_name: its name in an earlier edition; reading: a name reading (bdg -> bandung, bukit kecil -> bukitkecil, soerabaja -> surabaya); typo: a corrected typo; code: a region code written in the address (32.73.01.1001 or 3273011001) is this region's or a parent's; former_code: a code of an earlier edition whose successor this is; postal_code: the written postal code is the village's; former_kecamatan: the kecamatan written (with Kec.) is the one the village was in until a split moved it (warning kecamatan_former), id is that kecamatan, not the answer's",
          ),
        reading: z.enum(["spacing", "spelling", "abbreviation", "historic"]).nullable().describe("The name reading's kind, when via is reading"),
      }),
    )
    .describe("What matched which level of the answer, lowest level first"),
});

const DESCRIPTION = [
  "Free-text Indonesian addresses to Kemendagri region codes: the village (kelurahan/desa), kecamatan, kabupaten/kota and provinsi an address names, with how sure the answer is.",
  "Reads any case, with or without commas, the levels in any order, with or without level words (Kel., Ds., Desa, Kec., Kab., Kota, Kotamadya, Prov.), KTP style in capitals, short forms (Jabar, DKI, DIY, Jaksel, Bdg), old spellings, typos, names of earlier editions, region codes of any edition since 2015 written in the text (32.73.01.1001 or 3273011001, read through the region history: a database keyed on old codes), and village + city only; the postal code is evidence, never the decider.",
  "Street, house number, RT/RW, block, building, housing complex and dusun are set apart as components: a street named after a region (Jl. Bandung in Malang) is not that region.",
  "Answers level (the lowest resolved), confidence (0 to 1), up to 3 alternative villages, warnings (postal_code_mismatch, ambiguous, typo_corrected, former_name, former_code, unknown_code, kabupaten_inconsistent, kecamatan_inconsistent, kecamatan_former, kecamatan_unknown) and what matched which level.",
  "Never answers outside a provinsi or kabupaten/kota the text names (Kab. X, Kota X, Prov. X, or a province name at the end); a kecamatan written with Kec. binds the answer to it; when nothing inside a named region fits, that region itself is the answer, with a low confidence.",
].join(" ");

export const addressEndpoint = defineEndpoint({
  path: "/wilayah/address",
  tool: null, // served by wilayah_address (the batch), one address being a batch of one
  description: `${DESCRIPTION} One address; POST /wilayah/address takes up to ${ADDRESS_BATCH_MAX}.`,
  example: { q: "Jl. Asia Afrika No. 8, Braga, Sumur Bandung, Kota Bandung, Jawa Barat 40111" },
  input: z.strictObject({
    q: addressText.describe(`The address, at most ${ADDRESS_MAX_LENGTH} characters (Jl. Braga No. 8, Braga, Sumur Bandung, Kota Bandung 40111)`),
  }),
  output: z.object({ data: answer }),
  cacheSeconds: DAY,
  cacheScope: "account",
  version: WILAYAH_DATA,
  tag: "Addresses",
  handler: async (q, { reads }) => ({ data: (await resolveAddresses(reads.db, [q.q]))[0] }),
});

export const addressBatchEndpoint = defineEndpoint({
  path: "/wilayah/address",
  method: "POST",
  tool: "wilayah_address",
  description: `${DESCRIPTION} 1 to ${ADDRESS_BATCH_MAX} addresses, answered in the same order; each counts as one call, and a request the remaining quota and credits cannot cover whole is refused whole (402).`,
  example: {
    addresses: [
      "Jl. Asia Afrika No. 8, Braga, Sumur Bandung, Kota Bandung, Jawa Barat 40111",
      "DSN KRAJAN RT 002 RW 001 DESA SUKOREJO KEC. BANGSALSARI KAB. JEMBER",
      "kel cihapit kec bandung wetan bdg",
    ],
  },
  input: z.strictObject({
    addresses: z
      .array(addressText)
      .min(1, "at least 1 address")
      .max(ADDRESS_BATCH_MAX, `at most ${ADDRESS_BATCH_MAX} addresses per request`)
      .describe(`1 to ${ADDRESS_BATCH_MAX} addresses, each at most ${ADDRESS_MAX_LENGTH} characters; each counts as one call`),
  }),
  calls: (input) => input.addresses.length,
  output: z.object({ data: z.array(answer).describe("One answer per address, in the order given") }),
  cacheSeconds: DAY,
  cacheScope: "account",
  version: WILAYAH_DATA,
  tag: "Addresses",
  handler: async (q, { reads }) => ({ data: await resolveAddresses(reads.db, q.addresses) }),
});

/** In catalogue order: one-segment paths, before `/wilayah/:id`, which would take them. */
export const addressEndpoints = [addressEndpoint, addressBatchEndpoint];
