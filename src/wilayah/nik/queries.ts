/** The names of the regions a NIK's code names (any of them may be retired). */
import { eq } from "drizzle-orm";
import type { RegionDb } from "../../db/client";
import { kabupaten, kecamatan, provinsi } from "../../db/schema";

/** Names of a provinsi, kabupaten/kota and kecamatan by id, each undefined when unknown (any of them may be retired). */
export async function regionChain(db: RegionDb, ids: { provinsi: string; kabupaten: string; kecamatan: string }) {
  const [p, b, c] = await db.batch([
    db.select({ id: provinsi.id, name: provinsi.name, is_active: provinsi.isActive }).from(provinsi).where(eq(provinsi.id, ids.provinsi)),
    db.select({ id: kabupaten.id, name: kabupaten.name, is_active: kabupaten.isActive }).from(kabupaten).where(eq(kabupaten.id, ids.kabupaten)),
    db.select({ id: kecamatan.id, name: kecamatan.name, is_active: kecamatan.isActive }).from(kecamatan).where(eq(kecamatan.id, ids.kecamatan)),
  ]);
  return { provinsi: p[0], kabupaten: b[0], kecamatan: c[0] };
}
