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
  kelurahan: { table: kelurahan, parent: kelurahan.kecamatanId, columns: { ...base(kelurahan), kecamatan_id: kelurahan.kecamatanId } },
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

/** A word of exactly two letters or digits: answered from the word-prefix index. */
const TWO_CHAR_WORD = /^[\p{L}\p{N}]{2}$/u;

/**
 * One indexed query over all four levels. `q` is already normalised.
 * - 3+ characters: substring match on the FTS5 trigram index `wilayah_search`.
 * - 2 letters/digits: word-prefix match on the FTS5 word index `wilayah_words` (trigrams need 3).
 * - anything else (2 characters with punctuation): a literal substring scan, rare and cheap to rank.
 * Ranking: exact term, term prefix, word prefix, substring; then higher level, name, id. Terms are
 * delimited by TERM_SEPARATOR (S) in `terms`, so `S<q>S` is an exact term and `S<q>` a term prefix.
 * The total comes from a window count in the same query; a page past the end counts separately.
 */
export async function searchRegions(
  db: Db,
  opts: { q: string; level?: number; includeInactive: boolean; limit: number; offset: number },
): Promise<{ total: number; rows: SearchRow[] }> {
  const { q } = opts;
  const chars = [...q].length;
  const from =
    chars < 3 && TWO_CHAR_WORD.test(q)
      ? sql`wilayah_words JOIN wilayah_search s ON s.rowid = wilayah_words.rowid WHERE wilayah_words MATCH ${`"${q}"*`}`
      : chars < 3
        ? sql`wilayah_search s WHERE instr(s.terms, ${q}) > 0`
        : sql`wilayah_search s WHERE wilayah_search MATCH ${`"${q.replaceAll('"', '""')}"`}`;
  const filters = sql.join(
    [opts.level ? sql` AND s.level = ${opts.level}` : undefined, opts.includeInactive ? undefined : sql` AND s.is_active = 1`].filter(
      (f): f is SQL => f !== undefined,
    ),
  );
  const sep = TERM_SEPARATOR;
  const tier = sql`CASE
    WHEN instr(s.terms, ${sep + q + sep}) > 0 THEN 0
    WHEN instr(s.terms, ${sep + q}) > 0 THEN 1
    WHEN instr(s.terms, ${` ${q}`}) > 0 OR instr(s.terms, ${`-${q}`}) > 0 OR instr(s.terms, ${`(${q}`}) > 0 OR instr(s.terms, ${`/${q}`}) > 0 THEN 2
    ELSE 3 END`;
  const rows = await db.all<SearchRow & { total: number }>(
    sql`SELECT s.id, s.name, s.alt_name, s.level, s.parent, s.is_active, count(*) OVER () AS total FROM ${from}${filters}
        ORDER BY ${tier}, s.level, s.name, s.id LIMIT ${opts.limit} OFFSET ${opts.offset}`,
  );
  if (rows.length > 0 || opts.offset === 0) {
    return { total: rows[0]?.total ?? 0, rows: rows.map(({ total: _, ...r }) => r) };
  }
  const counted = await db.all<{ total: number }>(sql`SELECT count(*) AS total FROM ${from}${filters}`);
  return { total: counted[0]?.total ?? 0, rows: [] };
}
