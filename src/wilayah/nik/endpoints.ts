/** The region, birth date and sex a NIK encodes, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint } from "../../data/endpoint";
import { regionDb } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { errorText, log } from "../../lib/log";
import { regionRef } from "../schemas";
import { DATA_VERSION } from "../version";
import { nikRegion } from "./service";

const nikInput = z.strictObject({ nik: z.string().max(40).describe("A 16-digit NIK (Nomor Induk Kependudukan)") });

export const nikEndpoint = defineEndpoint({
  path: "/wilayah/nik/:nik",
  errors: ["NOT_FOUND"],
  tool: "wilayah_nik",
  description:
    "The region, date of birth and sex encoded in a 16-digit Indonesian ID number (NIK): its first six digits name the provinsi, kabupaten/kota and kecamatan where it was issued. The number is neither stored nor logged.",
  input: nikInput,
  output: z.object({
    data: z.object({
      region_code: z.string().describe("The kecamatan code the NIK encodes, dotted"),
      provinsi: regionRef.nullable(),
      kabupaten: regionRef.nullable().describe("null when the code is not (or no longer) a kabupaten/kota"),
      kecamatan: regionRef.nullable().describe("null when the code is not (or no longer) a kecamatan, e.g. after a split"),
      birth_date: z.string().describe("YYYY-MM-DD; the two-digit year is read as the latest such year not in the future"),
      sex: z.enum(["male", "female"]),
    }),
  }),
  // Never cached: a cache key would hold the NIK.
  cacheSeconds: 0,
  version: DATA_VERSION,
  handler: async (q, { env }) => {
    try {
      return await nikRegion(regionDb(env), q.nik);
    } catch (e) {
      if (e instanceof ApiError) throw e;
      // The app's error log names the request path, which holds the NIK: log here without it.
      log.error("nik_error", { endpoint: "/wilayah/nik/:nik", error: errorText(e) });
      throw new ApiError("INTERNAL_ERROR", "Something went wrong on our side. Quote the request id when you contact support.");
    }
  },
});
