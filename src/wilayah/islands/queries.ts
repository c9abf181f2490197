/** Reads for islands, postal codes and NIK regions (tables `pulau`, `kelurahan` and parents). */
import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { kabupaten, kecamatan, kelurahan, provinsi, pulau } from "../../db/schema";

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
  db: Db,
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

export async function findPulau(db: Db, id: string): Promise<PulauRow | undefined> {
  const rows = await db.select(pulauColumns).from(pulau).where(eq(pulau.id, id)).limit(1);
  return rows[0];
}

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
export async function villagesByPostalCode(db: Db, postalCode: string, limit: number, offset: number): Promise<{ total: number; rows: PostalVillageRow[] }> {
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

/** Names of a provinsi, kabupaten/kota and kecamatan by id, each undefined when unknown (any of them may be retired). */
export async function regionChain(db: Db, ids: { provinsi: string; kabupaten: string; kecamatan: string }) {
  const [p, b, c] = await db.batch([
    db.select({ id: provinsi.id, name: provinsi.name, is_active: provinsi.isActive }).from(provinsi).where(eq(provinsi.id, ids.provinsi)),
    db.select({ id: kabupaten.id, name: kabupaten.name, is_active: kabupaten.isActive }).from(kabupaten).where(eq(kabupaten.id, ids.kabupaten)),
    db.select({ id: kecamatan.id, name: kecamatan.name, is_active: kecamatan.isActive }).from(kecamatan).where(eq(kecamatan.id, ids.kecamatan)),
  ]);
  return { provinsi: p[0], kabupaten: b[0], kecamatan: c[0] };
}
