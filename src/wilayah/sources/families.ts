/**
 * The families of a region's fields whose source the API can tell (issue 40), and which levels have
 * each. Shared by the seed (scripts/seed/sources.ts checks seed/sources/sources.json against it) and
 * the service, so a family the manifest names is one the API answers.
 */
import type { Level } from "../codes";

export const FAMILIES = ["code_name", "coordinates", "postal_code", "boundary", "population_area", "islands", "bps_codes"] as const;
export type Family = (typeof FAMILIES)[number];

/** A level's families: postal codes are the villages', population and area and islands the provinces' and regencies', BPS codes start at the regency. */
export const LEVEL_FAMILIES: Record<Level, readonly Family[]> = {
  provinsi: ["code_name", "coordinates", "boundary", "population_area", "islands"],
  kabupaten: ["code_name", "coordinates", "boundary", "population_area", "islands", "bps_codes"],
  kecamatan: ["code_name", "coordinates", "boundary", "bps_codes"],
  kelurahan: ["code_name", "coordinates", "postal_code", "boundary", "bps_codes"],
};

/** The kinds of hand correction a region's sources may cite; `report` is an accepted report (the corrections desk, issue 40 part 2). */
export const CORRECTION_KINDS = ["curated_history", "name_reading", "alias", "alt_name", "derived_point", "island_move", "report"] as const;
export type CorrectionKind = (typeof CORRECTION_KINDS)[number];

/**
 * Datasets the service cites by id (seed/sources/sources.json must hold them; the seed checks): the
 * code list's names, the BPS service and the repository of each BPS period (`bps-<period>`), and
 * our own curated tables, cited when a region has a correction from them.
 */
export const CITED_SOURCES = {
  names: "idn-area-data",
  bps: "bps-bridging",
  bpsPeriod: (period: string) => `bps-${period}`,
  curated: "wilayah-api-curated",
} as const;
export const BPS_PERIODS = ["2025_2", "2020_2", "2017_2"] as const;
