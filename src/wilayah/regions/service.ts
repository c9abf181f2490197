/** Regional data rules: paging, id forms, not-found. Knows nothing of HTTP. */
import type { RegionDb } from "../../db/client";
import type { RegionReads } from "../../db/reads";
import { ApiError } from "../../lib/errors";
import { type PageMeta, type Paging, pageWindow } from "../../lib/paging";
import { type Level, levelOf, toDottedId } from "../codes";
import { replacedBy, retiredRecord } from "../history/service";
import { type RegionSources, regionSources } from "../sources/service";
import { findRegion, listRegions, type RegionRow } from "./queries";

/** A region as the API shows it: population and area (provinsi, kabupaten/kota) grouped, with the density. */
export type RegionRecord = Omit<RegionRow, "population_male" | "population_female" | "population_total"> & {
  population?: { male: number; female: number; total: number } | null;
  density_per_km2?: number | null;
};

function toRecord(row: RegionRow): RegionRecord {
  if (!("population_total" in row)) return row;
  const { population_male: male, population_female: female, population_total: total, ...rest } = row;
  const area = rest.area_km2 ?? null;
  return {
    ...rest,
    area_km2: area,
    population: male == null || female == null || total == null ? null : { male, female, total },
    density_per_km2: total == null || !area ? null : Math.round((total / area) * 10) / 10,
  };
}

export async function listLevel(
  db: RegionDb,
  level: Level,
  opts: Paging & { parentId?: string; includeInactive: boolean },
): Promise<{ data: RegionRecord[]; meta: PageMeta }> {
  const w = pageWindow(opts);
  // A filter that is not a well-formed code matches nothing: an empty list, not an error.
  const parentId = opts.parentId === undefined ? undefined : (toDottedId(opts.parentId) ?? "-");
  const { total, rows } = await listRegions(db, level, { parentId, includeInactive: opts.includeInactive, limit: w.limit, offset: w.offset });
  return { data: rows.map(toRecord), meta: w.meta(total) };
}

/** A region by id as the API shows it (getRegion). */
export type RegionAnswer = {
  data: RegionRecord & { level: Level; replaced_by?: string[]; bps_codes: { code: string; period: string }[]; sources?: RegionSources };
};

/**
 * By id at a given level (or at the level the code tells, when `level` is omitted), of any edition:
 * the region tables first (current codes and the retired codes of the previous list), else the
 * region history (a code of an earlier edition, as last published). A retired code says which
 * current regions replaced it (`replaced_by`). `sources`: add where each family of its fields comes
 * from (src/wilayah/sources), read only then. A current region without sources is one batch, the
 * answer's data version riding in it (src/data/reads.ts).
 */
export async function getRegion(reads: RegionReads, rawId: string, level?: Level, opts: { sources?: boolean } = {}): Promise<RegionAnswer> {
  const answer = await findRecord(reads, rawId, level);
  if (opts.sources) answer.data.sources = await regionSources(reads, answer.data);
  return answer;
}

async function findRecord(reads: RegionReads, rawId: string, level: Level | undefined): Promise<RegionAnswer> {
  const id = toDottedId(rawId);
  const idLevel = id ? levelOf(id) : undefined;
  if (!id || !idLevel || (level && idLevel !== level)) {
    throw new ApiError(
      "NOT_FOUND",
      `No ${level ?? "region"} with id "${rawId.length > 40 ? `${rawId.slice(0, 40)}…` : rawId}". Ids are Kemendagri codes such as 32, 32.73, 32.73.09 or 32.73.09.1001 (dots optional).`,
    );
  }
  // BPS codes lead to current regions only: a retired code's list is empty.
  const { row, bps } = await findRegion(reads, idLevel, id);
  if (row?.is_active === 1) return { data: { ...toRecord(row), level: idLevel, bps_codes: bps } };
  if (row) return { data: { ...toRecord(row), level: idLevel, replaced_by: await replacedBy(reads.db, id), bps_codes: bps } };
  const old = await retiredRecord(reads.db, id, idLevel);
  if (!old) throw new ApiError("NOT_FOUND", `No ${idLevel} with id "${id}" in any edition since 2015.`);
  return { data: { ...old, level: idLevel, bps_codes: [] } };
}
