/**
 * What the wilayah endpoints share: the region record (every level's fields), a `{id, name}`
 * reference, the input pieces several capabilities take (flags, decimal coordinates), and how long
 * answers may be cached (the data changes only with a seed).
 */
import { z } from "zod";
import { flagParam } from "../data/endpoint";
import type { Level } from "./codes";

/** Answers change only with a seed, which changes the data version (and so the cache key). */
export const DAY = 86_400;

export const regionFields = {
  id: z.string().describe("Kemendagri code with dots, e.g. 32.73.09.1001"),
  code: z.string().describe("The same code without dots"),
  name: z.string(),
  alt_name: z.string().describe("Another common spelling; may equal name"),
  lat: z.number().nullable().describe("Centroid latitude (cahyadsn/wilayah_boundaries, MIT), or null when unknown"),
  lng: z.number().nullable().describe("Centroid longitude, or null when unknown"),
  is_active: z.number().int().describe("1 for codes in force, 0 for retired codes"),
  replaced_by: z
    .array(z.string())
    .optional()
    .describe("By id, retired codes only: the ids of the current regions that replaced it (empty when not known; see /wilayah/{code}/history)"),
};

/** Population and area of provinsi and kabupaten/kota (seed/sources/README.md: cahyadsn/wilayah, MIT). */
export const statsFields = {
  population: z
    .object({ male: z.number().int(), female: z.number().int(), total: z.number().int() })
    .nullable()
    .describe("People by sex and in total (cahyadsn/wilayah, MIT; the source states no reference date for the counts); null where unknown"),
  area_km2: z.number().nullable().describe("Area in km² (cahyadsn/wilayah, MIT, following Badan Informasi Geospasial, December 2024); null where unknown"),
  density_per_km2: z.number().nullable().describe("population.total / area_km2, people per km² to 1 decimal; null when either is unknown"),
};

/** The record of each level: the common fields, the parent id below provinsi, `type` for kabupaten/kota, `postal_code` for villages, population and area for provinsi and kabupaten/kota. */
export const LEVEL_RECORD = {
  provinsi: z.object({ ...regionFields, ...statsFields }),
  kabupaten: z.object({ ...regionFields, provinsi_id: z.string(), type: z.enum(["kabupaten", "kota"]), ...statsFields }),
  kecamatan: z.object({ ...regionFields, kabupaten_id: z.string() }),
  kelurahan: z.object({
    ...regionFields,
    kecamatan_id: z.string(),
    postal_code: z.string().nullable().describe("Postal code (kode pos), 5 digits; null only for retired codes"),
  }),
} as const satisfies Record<Level, z.ZodObject>;

/** By-id answers: the BPS (statistics bureau) codes that lie in the region (src/wilayah/bps). */
export const bpsCodes = z
  .array(z.object({ code: z.string().describe("BPS code, digits only"), period: z.string().describe("BPS period of the pairing: 2025_2, 2020_2 or 2017_2") }))
  .describe(
    "The BPS codes that lie in this region, newest period first (several where BPS splits what Kemendagri does not, or renumbered: prefer the newest period; GET /wilayah/bps/{code} tells more); empty for a retired code or one BPS has no pairing for",
  );

/** A region named in an answer: its id and name. */
export const regionRef = z.object({ id: z.string(), name: z.string() });

export const includeInactive = flagParam.describe("Also return codes retired by the current regulation (1/true).");

/** Optional yes/no filter: absent means no filter. */
export const optionalFlag = (about: string) =>
  z
    .union([z.boolean(), z.enum(["1", "0", "true", "false"])])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === true || v === "1" || v === "true"))
    .describe(about);

/** A decimal number as query text (`-6.9`, `107.61`) or a JSON number; no exponents, hex or spaces. */
export const decimal = (name: string, min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^-?\d{1,3}(\.\d{1,12})?$/, `${name} must be a decimal number such as ${min < 0 ? "-6.9" : "107.6"}`)])
    .transform(Number)
    .pipe(z.number().finite().min(min, `${name} must be between ${min} and ${max}`).max(max, `${name} must be between ${min} and ${max}`));
