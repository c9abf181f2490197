/** The coverage report: what the loaded data has, per level, and which regions lack a field. */
import type { RegionDb } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { type PageMeta, type Paging, pageWindow } from "../../lib/paging";
import { LEVELS, type Level } from "../codes";
import { COVERAGE_FIELDS, type CoverageField, FIELD_LEVELS } from "./fields";
import { coverageRows, gapFields, lacking } from "./queries";

export type LevelCoverage = { level: Level; regions: number } & Record<CoverageField, number | null>;

/** Per level: current regions, and how many have each field (null: the field does not apply to the level). */
export async function getCoverage(db: RegionDb): Promise<{ data: LevelCoverage[] }> {
  const rows = await coverageRows(db);
  const data = LEVELS.map((level, i) => {
    const mine = rows.filter((r) => r.level === i + 1);
    const entry = { level, regions: mine[0]?.regions ?? 0 } as LevelCoverage;
    for (const field of COVERAGE_FIELDS) {
      entry[field] = FIELD_LEVELS[field].includes(level) ? (mine.find((r) => r.field === field)?.covered ?? 0) : null;
    }
    return entry;
  });
  return { data };
}

export type MissingAnswer = {
  data: { id: string; name: string; level: Level }[];
  meta: PageMeta & { field: CoverageField; levels: Level[] };
};

/** The current regions that lack `field`, at one level or at every level it applies to; paged, by level then id. */
export async function getMissing(db: RegionDb, field: CoverageField, level: Level | undefined, paging: Paging): Promise<MissingAnswer> {
  const applies = FIELD_LEVELS[field];
  if (level && !applies.includes(level)) {
    const valid = COVERAGE_FIELDS.filter((f) => FIELD_LEVELS[f].includes(level));
    throw new ApiError(
      "INVALID_QUERY",
      `${field} does not apply to ${level} (it applies to ${applies.join(", ")}). Fields for ${level}: ${valid.join(", ")}.`,
      {
        details: [{ path: "field", message: `valid for ${level}: ${valid.join(", ")}` }],
      },
    );
  }
  const levels = level ? [level] : [...applies];
  const w = pageWindow(paging);
  const { total, rows } = await lacking(db, field, levels, w.limit, w.offset);
  return {
    data: rows.map((r) => ({ id: r.id, name: r.name, level: LEVELS[r.level - 1] })),
    meta: { ...w.meta(total), field, levels },
  };
}

/** The fields a current region lacks, as the coverage report (what is loaded) has them. */
export const missingFields = (db: RegionDb, level: Level, id: string): Promise<CoverageField[]> => gapFields(db, level, id);
