/** Reads of `wilayah_bps` (the BPS codes, seed/sources/wilayah-bps-crosswalk.csv): this room owns the table. */
import { asc, desc, eq, sql } from "drizzle-orm";
import type { RegionDb } from "../../db/client";
import { compiledSelect } from "../../db/compiled";
import type { RegionReads } from "../../db/reads";
import { wilayahBps } from "../../db/schema";

export type BpsRow = {
  code: string;
  level: number;
  name: string | null;
  period: string;
  kemendagri_codes: string | null;
  kemendagri_name: string | null;
  current_id: string | null;
  current_name: string | null;
  match: string;
};

const columns = {
  code: wilayahBps.code,
  level: wilayahBps.level,
  name: wilayahBps.name,
  period: wilayahBps.period,
  kemendagri_codes: wilayahBps.kemendagriCodes,
  kemendagri_name: wilayahBps.kemendagriName,
  current_id: wilayahBps.currentId,
  current_name: wilayahBps.currentName,
  match: wilayahBps.match,
};

/** One BPS code (digits only), by its primary key, in a batch of its own: in an answer the data version rides in it (src/data/reads.ts). */
export async function bpsRow(reads: RegionReads, code: string): Promise<BpsRow | undefined> {
  const [result] = await reads.batch([BPS_BY_CODE.statement(reads.db, { code })]);
  return BPS_BY_CODE.rows(result as D1Result)[0];
}

/** Every uncached GET /wilayah/bps/:code runs it: rendered once (src/db/compiled.ts). */
const BPS_BY_CODE = compiledSelect<BpsRow, "code">(columns, (db) =>
  db
    .select(columns)
    .from(wilayahBps)
    .where(eq(wilayahBps.code, sql.placeholder("code")))
    .limit(1),
);

/**
 * The BPS codes that lie in one current region, newest period first: a statement for the caller to
 * batch with its own read (the by-id answers), read through the `current_id` index (its rows only).
 */
export const bpsCodesOf = compiledSelect<{ code: string; period: string }, "id">({ code: wilayahBps.code, period: wilayahBps.period }, (db) =>
  db
    .select({ code: wilayahBps.code, period: wilayahBps.period })
    .from(wilayahBps)
    .where(eq(wilayahBps.currentId, sql.placeholder("id")))
    .orderBy(desc(wilayahBps.period), asc(wilayahBps.code)),
);

/** Many BPS codes in one statement (one bound parameter, whatever their number), in the order given; a code not held gives nulls. */
export async function bpsRows(db: RegionDb, codes: string[]): Promise<(BpsRow | null)[]> {
  const rows = await db.all<
    BpsRow & { i: number }
  >(sql`SELECT j.key AS i, b.code, b.level, b.name, b.period, b.kemendagri_codes, b.kemendagri_name, b.current_id, b.current_name, b.match
    FROM json_each(${JSON.stringify(codes)}) j LEFT JOIN wilayah_bps b ON b.code = j.value ORDER BY j.key`);
  return rows.map((r) => (r.code === null ? null : r));
}

/**
 * The periods the table holds, newest first (the not-found message names them): one index lookup
 * per period (the next one above the last), not a scan of the 92,539 rows.
 */
export async function bpsPeriods(db: RegionDb): Promise<string[]> {
  const rows = await db.all<{ v: string }>(sql`WITH RECURSIVE p(v) AS (SELECT min(period) FROM wilayah_bps
    UNION ALL SELECT (SELECT min(period) FROM wilayah_bps WHERE period > p.v) FROM p WHERE p.v IS NOT NULL)
    SELECT v FROM p WHERE v IS NOT NULL ORDER BY v DESC`);
  return rows.map((r) => r.v);
}

/** Search (src/wilayah/search) reads a BPS code as the region it lies in: this subquery's text, for its raw SQL; `digits` are digits only. */
export function bpsCurrentIdSql(digits: string): string {
  if (!/^\d+$/.test(digits)) throw new Error("bpsCurrentIdSql: digits only");
  return `SELECT current_id FROM wilayah_bps WHERE code = '${digits}'`;
}

/** The BPS codes that lie in each of some current regions, newest period first (as bpsCodesOf orders them): one statement. */
export async function bpsCodesOfMany(db: RegionDb, ids: string[]): Promise<Map<string, string[]>> {
  const rows = await db.all<{ id: string; code: string }>(
    sql`SELECT b.current_id AS id, b.code FROM json_each(${JSON.stringify(ids)}) j JOIN wilayah_bps b ON b.current_id = j.value
      ORDER BY b.current_id, b.period DESC, b.code`,
  );
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.id, [...(out.get(r.id) ?? []), r.code]);
  return out;
}
