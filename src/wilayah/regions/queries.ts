/** Reads of the four region tables (`provinsi`, `kabupaten`, `kecamatan`, `kelurahan`). */
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { RegionDb } from "../../db/client";
import { type CompiledSelect, compiledSelect } from "../../db/compiled";
import type { RegionReads } from "../../db/reads";
import { kabupaten, kecamatan, kelurahan, provinsi } from "../../db/schema";
import { bpsCodesOf } from "../bps/queries";
import type { Level } from "../codes";

const base = <T extends typeof provinsi | typeof kabupaten | typeof kecamatan | typeof kelurahan>(t: T) => ({
  id: t.id,
  code: t.code,
  name: t.name,
  alt_name: t.altName,
  lat: t.lat,
  lng: t.lng,
  is_active: t.isActive,
});

const stats = <T extends typeof provinsi | typeof kabupaten>(t: T) => ({
  population_male: t.populationMale,
  population_female: t.populationFemale,
  population_total: t.populationTotal,
  area_km2: t.areaKm2,
});

/** Per level: the table, its parent column, and the columns of a record in API (snake_case) form (population flat, as stored). */
const LEVEL_TABLES = {
  provinsi: { table: provinsi, parent: null, columns: { ...base(provinsi), ...stats(provinsi) } },
  kabupaten: {
    table: kabupaten,
    parent: kabupaten.provinsiId,
    columns: { ...base(kabupaten), provinsi_id: kabupaten.provinsiId, type: kabupaten.type, ...stats(kabupaten) },
  },
  kecamatan: { table: kecamatan, parent: kecamatan.kabupatenId, columns: { ...base(kecamatan), kabupaten_id: kecamatan.kabupatenId } },
  kelurahan: {
    table: kelurahan,
    parent: kelurahan.kecamatanId,
    columns: { ...base(kelurahan), kecamatan_id: kelurahan.kecamatanId, postal_code: kelurahan.postalCode },
  },
} as const;

export type RegionRow = {
  id: string;
  code: string;
  name: string;
  alt_name: string;
  lat: number | null;
  lng: number | null;
  is_active: number;
  provinsi_id?: string;
  kabupaten_id?: string;
  kecamatan_id?: string;
  type?: "kabupaten" | "kota";
  postal_code?: string | null;
  population_male?: number | null;
  population_female?: number | null;
  population_total?: number | null;
  area_km2?: number | null;
};

export async function listRegions(
  db: RegionDb,
  level: Level,
  opts: { parentId?: string; includeInactive: boolean; limit: number; offset: number },
): Promise<{ total: number; rows: RegionRow[] }> {
  const { table, parent, columns } = LEVEL_TABLES[level];
  const where = and(parent && opts.parentId !== undefined ? eq(parent, opts.parentId) : undefined, opts.includeInactive ? undefined : eq(table.isActive, 1));
  const [totals, rows] = await db.batch([
    db.select({ total: count() }).from(table).where(where),
    db.select(columns).from(table).where(where).orderBy(asc(table.id)).limit(opts.limit).offset(opts.offset),
  ]);
  return { total: totals[0]?.total ?? 0, rows: rows as RegionRow[] };
}

/**
 * One region and the BPS codes that lie in it (newest period first), in one round trip: the BPS
 * statement reads only its own rows (the `current_id` index), a handful at most. In an answer the
 * data version rides in the same batch (src/data/reads.ts).
 */
export async function findRegion(
  reads: RegionReads,
  level: Level,
  id: string,
): Promise<{ row: RegionRow | undefined; bps: { code: string; period: string }[] }> {
  const byId = REGION_BY_ID[level];
  const db = reads.db;
  const [rows, bps] = await reads.batch([byId.statement(db, { id }), bpsCodesOf.statement(db, { id })]);
  return { row: byId.rows(rows as D1Result)[0], bps: bpsCodesOf.rows(bps as D1Result) };
}

/** One region by id, per level: rendered once (src/db/compiled.ts), as every uncached by-id answer runs it. */
const REGION_BY_ID = Object.fromEntries(
  (Object.keys(LEVEL_TABLES) as Level[]).map((level) => {
    const { table, columns } = LEVEL_TABLES[level];
    return [
      level,
      compiledSelect<RegionRow, "id">(columns, (db) =>
        db
          .select(columns)
          .from(table)
          .where(eq(table.id, sql.placeholder("id")))
          .limit(1),
      ),
    ];
  }),
) as Record<Level, CompiledSelect<"id", RegionRow>>;
