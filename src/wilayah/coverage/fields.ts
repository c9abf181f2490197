/**
 * What the coverage report counts: the fields a current region may lack, and the levels each one
 * applies to. Pure: the seed (scripts/seed/space-sql.ts) builds the report from the same list.
 */
import { LEVELS, type Level } from "../codes.ts";

export const COVERAGE_FIELDS = ["coordinates", "boundary", "postal_code", "population", "area", "bps_code"] as const;
export type CoverageField = (typeof COVERAGE_FIELDS)[number];

/** The levels each field applies to (population and area: provinsi and kabupaten/kota only; postal codes: villages; BPS codes: below provinsi, which the crosswalk does not hold). */
export const FIELD_LEVELS: Record<CoverageField, readonly Level[]> = {
  coordinates: LEVELS,
  boundary: LEVELS,
  postal_code: ["kelurahan"],
  population: ["provinsi", "kabupaten"],
  area: ["provinsi", "kabupaten"],
  bps_code: ["kabupaten", "kecamatan", "kelurahan"],
};
