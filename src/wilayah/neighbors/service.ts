/** Neighbours: rules only (which region, and how an unknown boundary is answered). */
import type { RegionDb } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { type Level, levelOf, toDottedId } from "../codes";
import { neighborsOf } from "./queries";

export type NeighborsAnswer = {
  data: { id: string; name: string; level: Level; shared_border_km: number }[];
  meta: { boundary: boolean; total: number };
};

/**
 * The regions of the same level that share a border with `rawId`, largest border first (then by
 * id). Borders were measured at seed time from the boundaries (docs/neighbours-method.md). A region
 * with no boundary has unknown neighbours: `data: []` with `meta.boundary: false`; a region with a
 * boundary and no neighbour (an island) is `data: []` with `meta.boundary: true`.
 */
export async function getNeighbors(db: RegionDb, rawId: string): Promise<NeighborsAnswer> {
  const id = toDottedId(rawId);
  if (!id)
    throw new ApiError(
      "NOT_FOUND",
      `No region with id "${rawId.length > 40 ? `${rawId.slice(0, 40)}…` : rawId}". Ids are Kemendagri codes such as 32, 32.73, 32.73.09 or 32.73.09.1001 (dots optional).`,
    );
  const level = levelOf(id);
  const { region, rows } = await neighborsOf(db, level, id);
  if (!region) throw new ApiError("NOT_FOUND", `No ${level} with id "${id}".`);
  return {
    data: rows.map((r) => ({ id: r.id, name: r.name, level, shared_border_km: r.shared_border_km })),
    // Rows exist only where a boundary was drawn; a boundary without rows is an island.
    meta: { boundary: rows.length > 0 || region.boundary, total: rows.length },
  };
}
