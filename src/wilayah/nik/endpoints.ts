/** The region, birth date and sex a NIK encodes, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint } from "../../data/endpoint";
import { ApiError } from "../../lib/errors";
import { regionRef } from "../schemas";
import { WILAYAH_DATA } from "../version";
import { nikRegion } from "./service";

const nikInput = z.strictObject({ nik: z.string().max(40).describe("A 16-digit NIK (Nomor Induk Kependudukan)") });

const DESCRIPTION =
  "The region, date of birth and sex encoded in a 16-digit Indonesian ID number (NIK): its first six digits name the provinsi, kabupaten/kota and kecamatan where it was issued. A NIK keeps the code of the year it was issued: a code of an earlier edition (since 2015) answers the regions that took it over today, recoded: true, and as_issued (the codes and names of that edition). The number is neither stored nor logged.";

/**
 * Two routes, one answer: POST /wilayah/nik with `{"nik": "..."}` (recommended: the number stays out
 * of URLs, which proxies and logs record; the MCP tool) and GET /wilayah/nik/:nik (kept for
 * existing clients).
 */
const nikDeclaration = (path: string, method: "GET" | "POST", tool: string | null, description: string) =>
  defineEndpoint({
    path,
    method,
    errors: ["NOT_FOUND"],
    tool,
    description,
    input: nikInput,
    output: z.object({
      data: z.object({
        region_code: z.string().describe("The kecamatan code the NIK encodes, dotted"),
        provinsi: regionRef.nullable(),
        kabupaten: regionRef.nullable().describe("The current kabupaten/kota (of an earlier edition's code: the one that took it over); null when not known"),
        kecamatan: regionRef
          .nullable()
          .describe(
            "The current kecamatan (of an earlier edition's code: the one that took it over); null when the code was in no edition, or went to several kecamatan",
          ),
        birth_date: z.string().describe("YYYY-MM-DD; the two-digit year is read as the latest such year not in the future"),
        sex: z.enum(["male", "female"]),
        recoded: z
          .boolean()
          .describe(
            "True when the NIK's code belongs to an earlier edition of the code list: provinsi, kabupaten and kecamatan above are the current regions that took it over",
          ),
        as_issued: z
          .object({
            edition: z.string().describe("The last edition of the code list that had the NIK's code (2015, 2017, 2020, 2022, 2022b)"),
            provinsi: regionRef.nullable(),
            kabupaten: regionRef.nullable(),
            kecamatan: regionRef.nullable().describe("null when the kecamatan code was in no edition"),
          })
          .nullable()
          .describe("When recoded: the codes and names as that edition published them; null otherwise"),
      }),
    }),
    // Never cached: a cache key would hold the NIK.
    cacheSeconds: 0,
    version: WILAYAH_DATA,
    handler: async (q, { reads }) => {
      try {
        return await nikRegion(reads, q.nik);
      } catch (e) {
        // A NIK that is no valid number: in a body that is a malformed field (VALIDATION_ERROR), in a path
        // INVALID_QUERY. Anything else goes to the error handler, whose log masks NIK-like digits.
        if (e instanceof ApiError && method === "POST" && e.code === "INVALID_QUERY") throw new ApiError("VALIDATION_ERROR", e.message, e.extra);
        throw e;
      }
    },
  });

/** When to use it, and what it cannot tell. */
const USE =
  "Use it to read where and when a NIK was registered and the holder's sex, e.g. to prefill or check a form; it does not tell whether the person or the number exists. A malformed NIK is refused with the reason; a region code that names no region: NOT_FOUND.";

export const nikEndpoints = [
  nikDeclaration("/wilayah/nik", "POST", "wilayah_nik", `${DESCRIPTION} ${USE} Send it in the JSON body, {"nik": "..."}, so it never appears in a URL.`),
  nikDeclaration("/wilayah/nik/:nik", "GET", null, `${DESCRIPTION} ${USE} Prefer POST /wilayah/nik: a URL holding the NIK is recorded by proxies and logs.`),
];
