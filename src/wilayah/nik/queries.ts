/** The names of the regions a NIK's code names (any of them may be retired), and their history rows. */
import { eq } from "drizzle-orm";
import { batch, type RegionDb } from "../../db/client";
import { kabupaten, kecamatan, provinsi } from "../../db/schema";
import { type HistoryRow, historyRowsStatement } from "../history/queries";

type Named = { id: string; name: string; is_active: number };
type Chain = { provinsi: string; kabupaten: string; kecamatan: string };

const chainStatements = (db: RegionDb, ids: Chain) => [
  db.select({ id: provinsi.id, name: provinsi.name, is_active: provinsi.isActive }).from(provinsi).where(eq(provinsi.id, ids.provinsi)),
  db.select({ id: kabupaten.id, name: kabupaten.name, is_active: kabupaten.isActive }).from(kabupaten).where(eq(kabupaten.id, ids.kabupaten)),
  db.select({ id: kecamatan.id, name: kecamatan.name, is_active: kecamatan.isActive }).from(kecamatan).where(eq(kecamatan.id, ids.kecamatan)),
];

/** Names of a provinsi, kabupaten/kota and kecamatan by id, each undefined when unknown (any of them may be retired). */
export async function regionChain(db: RegionDb, ids: Chain) {
  const [p, b, c] = (await batch(db, chainStatements(db, ids))).map((r) => r.results[0] as Named | undefined);
  return { provinsi: p, kabupaten: b, kecamatan: c };
}

/** regionChain and, in the same round trip, the history rows of the three codes (a NIK issued under an earlier edition's code). */
export async function regionChainWithHistory(db: RegionDb, ids: Chain) {
  const [p, b, c, h] = await batch(db, [...chainStatements(db, ids), historyRowsStatement([ids.provinsi, ids.kabupaten, ids.kecamatan])]);
  const one = (r: D1Result) => r.results[0] as Named | undefined;
  return { provinsi: one(p), kabupaten: one(b), kecamatan: one(c), history: new Map((h.results as HistoryRow[]).map((r) => [r.id, r])) };
}
