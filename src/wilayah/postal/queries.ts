/** Villages by postal code, with their parents (tables `kelurahan` and its parents). */
import { and, asc, count, eq, gte, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import type { RegionDb } from "../../db/client";
import { kabupaten, kecamatan, kelurahan, provinsi } from "../../db/schema";

export type PostalVillageRow = {
  id: string;
  code: string;
  name: string;
  postal_code: string;
  lat: number | null;
  lng: number | null;
  kecamatan_id: string;
  kabupaten_id: string;
  provinsi_id: string;
  parent: string;
};

const parentNames: SQL<string> = sql`${kecamatan.name} || ', ' || ${kabupaten.name} || ', ' || ${provinsi.name}`;

/** Villages of one postal code with their parents, ordered by id. */
export async function villagesByPostalCode(
  db: RegionDb,
  postalCode: string,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: PostalVillageRow[] }> {
  const where = eq(kelurahan.postalCode, postalCode);
  const [totals, rows] = await db.batch([
    db.select({ total: count() }).from(kelurahan).where(where),
    db
      .select({
        id: kelurahan.id,
        code: kelurahan.code,
        name: kelurahan.name,
        postal_code: sql<string>`${kelurahan.postalCode}`,
        lat: kelurahan.lat,
        lng: kelurahan.lng,
        kecamatan_id: kelurahan.kecamatanId,
        kabupaten_id: kecamatan.kabupatenId,
        provinsi_id: kabupaten.provinsiId,
        parent: parentNames,
      })
      .from(kelurahan)
      .innerJoin(kecamatan, eq(kecamatan.id, kelurahan.kecamatanId))
      .innerJoin(kabupaten, eq(kabupaten.id, kecamatan.kabupatenId))
      .innerJoin(provinsi, eq(provinsi.id, kabupaten.provinsiId))
      .where(where)
      .orderBy(asc(kelurahan.id))
      .limit(limit)
      .offset(offset),
  ]);
  return { total: totals[0]?.total ?? 0, rows };
}

/**
 * The distinct postal codes of the current villages under a region (the ids after its code's
 * prefix: a range of the primary key), in order, at most `limit` (the map's region card).
 */
export async function postalCodesUnder(db: RegionDb, id: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ postal: sql<string>`${kelurahan.postalCode}` })
    .from(kelurahan)
    .where(and(gte(kelurahan.id, `${id}.`), lt(kelurahan.id, `${id}/`), eq(kelurahan.isActive, 1), isNotNull(kelurahan.postalCode)))
    .orderBy(asc(kelurahan.postalCode))
    .limit(limit);
  return rows.map((r) => r.postal);
}
