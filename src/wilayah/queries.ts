import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { kabupaten, kecamatan, kelurahan, provinsi } from "../db/schema";
import type { Level } from "./codes";
import { TERM_SEPARATOR } from "./normalize";

const base = <T extends typeof provinsi | typeof kabupaten | typeof kecamatan | typeof kelurahan>(t: T) => ({
  id: t.id,
  code: t.code,
  name: t.name,
  alt_name: t.altName,
  lat: t.lat,
  lng: t.lng,
  is_active: t.isActive,
});

/** Per level: the table, its parent column, and the columns of a record in API (snake_case) form. */
const LEVEL_TABLES = {
  provinsi: { table: provinsi, parent: null, columns: base(provinsi) },
  kabupaten: { table: kabupaten, parent: kabupaten.provinsiId, columns: { ...base(kabupaten), provinsi_id: kabupaten.provinsiId, type: kabupaten.type } },
  kecamatan: { table: kecamatan, parent: kecamatan.kabupatenId, columns: { ...base(kecamatan), kabupaten_id: kecamatan.kabupatenId } },
  kelurahan: { table: kelurahan, parent: kelurahan.kecamatanId, columns: { ...base(kelurahan), kecamatan_id: kelurahan.kecamatanId, postal_code: kelurahan.postalCode } },
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
};

export async function listRegions(
  db: Db,
  level: Level,
  opts: { parentId?: string; includeInactive: boolean; limit: number; offset: number },
): Promise<{ total: number; rows: RegionRow[] }> {
  const { table, parent, columns } = LEVEL_TABLES[level];
  const where = and(
    parent && opts.parentId !== undefined ? eq(parent, opts.parentId) : undefined,
    opts.includeInactive ? undefined : eq(table.isActive, 1),
  );
  const [totals, rows] = await db.batch([
    db.select({ total: count() }).from(table).where(where),
    db.select(columns).from(table).where(where).orderBy(asc(table.id)).limit(opts.limit).offset(opts.offset),
  ]);
  return { total: totals[0]?.total ?? 0, rows: rows as RegionRow[] };
}

export async function findRegion(db: Db, level: Level, id: string): Promise<RegionRow | undefined> {
  const { table, columns } = LEVEL_TABLES[level];
  const rows = await db.select(columns).from(table).where(eq(table.id, id)).limit(1);
  return rows[0] as RegionRow | undefined;
}

export type SearchRow = {
  id: string;
  name: string;
  alt_name: string;
  level: number;
  parent: string | null;
  is_active: number;
};

/** A word of exactly two letters or digits: matched at word starts only (docs/api.md, "Search"). */
const TWO_CHAR_WORD = /^[\p{L}\p{N}]{2}$/u;

/** Above every character a name can hold: `s < q || TOP` bounds the suffixes that start with q. */
const TOP = "\u{10FFFF}";

/**
 * One indexed query over all four levels (tables: migrations/0006_wilayah_grams.sql). `q` is
 * already normalised. A region's tier is its best matching position: exact term 0, term start 1,
 * word start 2, inside a word 3; ties sort by `ord` (level, name, id). Only the page is ranked; the
 * total rides on a row of its own (LEFT JOIN), so a page past the end still carries it.
 * - Short queries (2 letters/digits, matched at word starts; any 3 characters, matched anywhere):
 *   `wilayah_short` holds their answers ranked, so the page is read in key order and the total is a
 *   range count.
 * - Anything longer (or 2 characters with punctuation) matches anywhere: a range scan of the suffix
 *   index `wilayah_grams`. Rows of tiers 0-2 all come from word starts (a small, separately indexed
 *   set), so when those fill the page, the inside-a-word matches are counted but never ranked.
 */
export async function searchRegions(
  db: Db,
  opts: { q: string; level?: number; includeInactive: boolean; limit: number; offset: number },
): Promise<{ total: number; rows: SearchRow[] }> {
  const { q, limit, offset } = opts;
  const filters = [opts.level ? sql`level = ${opts.level}` : undefined, opts.includeInactive ? undefined : sql`is_active = 1`];
  const where = (match: SQL) => sql.join([match, ...filters].filter((f): f is SQL => f !== undefined), sql` AND `);

  let ranked: SQL; // (r, tier) CTEs ending in `hits`
  let total: SQL;
  if (TWO_CHAR_WORD.test(q) || [...q].length === 3) {
    ranked = sql`hits AS (SELECT r, tier FROM wilayah_short WHERE ${where(sql`p = ${q}`)})`;
    total = sql`SELECT count(*) AS n FROM hits`;
  } else {
    const match = where(sql`s >= ${q} AND s < ${q + TOP}`);
    const tier = sql`min(CASE WHEN k = 0 AND s = ${q + TERM_SEPARATOR} THEN 0 WHEN k = 0 THEN 1 WHEN k = 1 THEN 2 ELSE 3 END)`;
    const need = offset + limit;
    ranked = sql`words AS (SELECT r, ${tier} AS tier FROM wilayah_grams WHERE ${match} AND k < 2 GROUP BY r),
      hits AS (
        SELECT r, tier FROM words WHERE (SELECT count(*) FROM words) >= ${need}
        UNION ALL
        SELECT r, ${tier} FROM wilayah_grams WHERE ${match} AND (SELECT count(*) FROM words) < ${need} GROUP BY r)`;
    total = sql`SELECT count(DISTINCT r) AS n FROM wilayah_grams WHERE ${match}`;
  }
  const rows = await db.all<(SearchRow & { total: number }) | { total: number; id: null }>(
    sql`WITH ${ranked}, total AS (${total})
    SELECT total.n AS total, w.id, w.name, w.alt_name, w.level, w.parent, w.is_active
    FROM total
    LEFT JOIN (SELECT r, tier FROM hits ORDER BY tier, r LIMIT ${limit} OFFSET ${offset}) page ON 1
    LEFT JOIN wilayah_search w ON w.ord = page.r
    ORDER BY page.tier, page.r`,
  );
  return {
    total: rows[0]?.total ?? 0,
    rows: rows.filter((r): r is SearchRow & { total: number } => r.id !== null).map(({ total: _, ...r }) => r),
  };
}
