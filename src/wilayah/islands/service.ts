/** Islands: ids, filters, not-found. Knows nothing of HTTP. */
import type { RegionDb } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { type PageMeta, type Paging, pageWindow } from "../../lib/paging";
import { toDottedId } from "../codes";
import { normalizeSearchText } from "../normalize";
import { findPulau, listPulau, type PulauRow } from "./queries";

/** Island ids: `11.01.40001` (regency-level) or `11.00.40001` (province-level), dots optional. */
const ISLAND_DOTTED = /^\d{2}\.\d{2}\.\d{5}$/;
const ISLAND_UNDOTTED = /^\d{9}$/;

export function toIslandId(input: string): string | null {
  const s = input.trim();
  if (ISLAND_DOTTED.test(s)) return s;
  if (ISLAND_UNDOTTED.test(s)) return `${s.slice(0, 2)}.${s.slice(2, 4)}.${s.slice(4)}`;
  return null;
}

export async function listIslands(
  db: RegionDb,
  opts: Paging & { kabupatenId?: string; provinsiId?: string; isPopulated?: boolean; isOutermostSmall?: boolean; q?: string; includeInactive: boolean },
): Promise<{ data: PulauRow[]; meta: PageMeta }> {
  const w = pageWindow(opts);
  let q: string | undefined;
  if (opts.q !== undefined) {
    q = normalizeSearchText(opts.q);
    if ([...q].length < 2) {
      throw new ApiError("INVALID_QUERY", "q must be at least 2 characters (after trimming).", { details: [{ path: "q", message: "at least 2 characters" }] });
    }
  }
  // A filter that is not a well-formed code matches nothing: an empty list, not an error.
  const asFilter = (v: string | undefined) => (v === undefined ? undefined : (toDottedId(v) ?? "-"));
  const { total, rows } = await listPulau(db, {
    kabupatenId: asFilter(opts.kabupatenId),
    provinsiId: asFilter(opts.provinsiId),
    isPopulated: opts.isPopulated,
    isOutermostSmall: opts.isOutermostSmall,
    q,
    includeInactive: opts.includeInactive,
    limit: w.limit,
    offset: w.offset,
  });
  return { data: rows, meta: w.meta(total) };
}

export async function getIsland(db: RegionDb, rawId: string): Promise<{ data: PulauRow }> {
  const id = toIslandId(rawId);
  const row = id ? await findPulau(db, id) : undefined;
  if (!row) throw new ApiError("NOT_FOUND", `No island with id "${rawId}". Island ids look like 11.01.40001 (dots optional).`);
  return { data: row };
}
