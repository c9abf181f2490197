/** Regional data rules: paging, id forms, not-found. Knows nothing of HTTP. */
import { replicaDb } from "../db/client";
import { ApiError } from "../lib/errors";
import { type PageMeta, type Paging, pageWindow } from "../lib/paging";
import { LEVELS, type Level, levelOf, toDottedId } from "./codes";
import { normalizeSearchText } from "./normalize";
import { findRegion, listRegions, type RegionRow, searchRegions } from "./queries";

export async function listLevel(
  env: Env,
  level: Level,
  opts: Paging & { parentId?: string; includeInactive: boolean },
): Promise<{ data: RegionRow[]; meta: PageMeta }> {
  const w = pageWindow(opts);
  // A filter that is not a well-formed code matches nothing: an empty list, not an error.
  const parentId = opts.parentId === undefined ? undefined : (toDottedId(opts.parentId) ?? "-");
  const { total, rows } = await listRegions(replicaDb(env), level, { parentId, includeInactive: opts.includeInactive, limit: w.limit, offset: w.offset });
  return { data: rows, meta: w.meta(total) };
}

/** By id at a given level (or at the level the code tells, when `level` is omitted). */
export async function getRegion(env: Env, rawId: string, level?: Level): Promise<{ data: RegionRow & { level: Level } }> {
  const id = toDottedId(rawId);
  const idLevel = id ? levelOf(id) : undefined;
  if (!id || !idLevel || (level && idLevel !== level)) {
    throw new ApiError("NOT_FOUND", `No ${level ?? "region"} with id "${rawId.length > 40 ? `${rawId.slice(0, 40)}…` : rawId}". Ids are Kemendagri codes such as 32, 32.73, 32.73.09 or 32.73.09.1001 (dots optional).`);
  }
  const row = await findRegion(replicaDb(env), idLevel, id);
  if (!row) throw new ApiError("NOT_FOUND", `No ${idLevel} with id "${id}".`);
  return { data: { ...row, level: idLevel } };
}

export const MIN_QUERY_LENGTH = 2;

export async function search(
  env: Env,
  opts: Paging & { q: string; level?: Level; includeInactive: boolean },
) {
  const q = normalizeSearchText(opts.q);
  if ([...q].length < MIN_QUERY_LENGTH) {
    throw new ApiError("INVALID_QUERY", `q must be at least ${MIN_QUERY_LENGTH} characters (after trimming).`, {
      details: [{ path: "q", message: `at least ${MIN_QUERY_LENGTH} characters` }],
    });
  }
  const w = pageWindow(opts);
  const { total, rows } = await searchRegions(replicaDb(env), {
    q,
    level: opts.level ? LEVELS.indexOf(opts.level) + 1 : undefined,
    includeInactive: opts.includeInactive,
    limit: w.limit,
    offset: w.offset,
  });
  return {
    data: rows.map((r) => ({
      id: r.id,
      name: r.name,
      alt_name: r.alt_name,
      level: LEVELS[r.level - 1],
      parent: r.parent,
      is_active: r.is_active,
    })),
    meta: w.meta(total),
  };
}
