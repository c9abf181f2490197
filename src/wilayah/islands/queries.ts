/** Reads of the `pulau` table. */
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { RegionDb } from "../../db/client";
import { pulau } from "../../db/schema";

const pulauColumns = {
  id: pulau.id,
  code: pulau.code,
  name: pulau.name,
  kabupaten_id: pulau.kabupatenId,
  provinsi_id: pulau.provinsiId,
  lat: pulau.lat,
  lng: pulau.lng,
  is_populated: pulau.isPopulated,
  is_outermost_small: pulau.isOutermostSmall,
  is_active: pulau.isActive,
  replaced_by: pulau.replacedBy,
};

export type PulauRow = {
  id: string;
  code: string;
  name: string;
  kabupaten_id: string | null;
  provinsi_id: string;
  lat: number | null;
  lng: number | null;
  is_populated: number;
  is_outermost_small: number;
  is_active: number;
  replaced_by: string | null;
};

export async function listPulau(
  db: RegionDb,
  opts: {
    kabupatenId?: string;
    provinsiId?: string;
    isPopulated?: boolean;
    isOutermostSmall?: boolean;
    /** Normalised name text to find anywhere in the name. */
    q?: string;
    includeInactive: boolean;
    limit: number;
    offset: number;
  },
): Promise<{ total: number; rows: PulauRow[] }> {
  const where = and(
    opts.kabupatenId !== undefined ? eq(pulau.kabupatenId, opts.kabupatenId) : undefined,
    opts.provinsiId !== undefined ? eq(pulau.provinsiId, opts.provinsiId) : undefined,
    opts.isPopulated !== undefined ? eq(pulau.isPopulated, opts.isPopulated ? 1 : 0) : undefined,
    opts.isOutermostSmall !== undefined ? eq(pulau.isOutermostSmall, opts.isOutermostSmall ? 1 : 0) : undefined,
    opts.q !== undefined ? sql`instr(${pulau.nameSearch}, ${opts.q}) > 0` : undefined,
    opts.includeInactive ? undefined : eq(pulau.isActive, 1),
  );
  const [totals, rows] = await db.batch([
    db.select({ total: count() }).from(pulau).where(where),
    db.select(pulauColumns).from(pulau).where(where).orderBy(asc(pulau.id)).limit(opts.limit).offset(opts.offset),
  ]);
  return { total: totals[0]?.total ?? 0, rows };
}

export async function findPulau(db: RegionDb, id: string): Promise<PulauRow | undefined> {
  const rows = await db.select(pulauColumns).from(pulau).where(eq(pulau.id, id)).limit(1);
  return rows[0];
}
