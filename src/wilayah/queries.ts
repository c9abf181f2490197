import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client";
import { kabupaten, kecamatan, kelurahan, provinsi } from "../db/schema";
import type { Level } from "./codes";

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

/**
 * One query over the FTS5 trigram index (`wilayah_search`, all four levels). `q` is already
 * normalised. Ranking: exact term, term prefix, word prefix, substring; then higher level, name, id.
 * Terms are newline-delimited in `terms`, so `\n<q>\n` is an exact term and `\n<q>` a term prefix.
 * Queries shorter than 3 characters cannot use trigrams and scan the (small) index instead.
 */
export async function searchRegions(
  db: Db,
  opts: { q: string; level?: number; includeInactive: boolean; limit: number; offset: number },
): Promise<{ total: number; rows: SearchRow[] }> {
  const { q } = opts;
  const match: SQL =
    [...q].length >= 3 ? sql`wilayah_search MATCH ${`"${q.replaceAll('"', '""')}"`}` : sql`instr(terms, ${q}) > 0`;
  const where = sql.join(
    [match, opts.level ? sql`level = ${opts.level}` : undefined, opts.includeInactive ? undefined : sql`is_active = 1`].filter(
      (s): s is SQL => s !== undefined,
    ),
    sql` AND `,
  );
  const nl = "\n";
  const tier = sql`CASE
    WHEN instr(terms, ${nl + q + nl}) > 0 THEN 0
    WHEN instr(terms, ${nl + q}) > 0 THEN 1
    WHEN instr(terms, ${` ${q}`}) > 0 OR instr(terms, ${`-${q}`}) > 0 OR instr(terms, ${`(${q}`}) > 0 OR instr(terms, ${`/${q}`}) > 0 THEN 2
    ELSE 3 END`;
  // drizzle 0.45 cannot batch raw `sql` queries that have parameters (SQLiteRaw has no stmt), so this
  // one compiles them with drizzle's dialect and batches them on the same D1 session itself.
  const [totals, rows] = await db.$client.batch([
    prepare(db, sql`SELECT count(*) AS total FROM wilayah_search WHERE ${where}`),
    prepare(
      db,
      sql`SELECT id, name, alt_name, level, parent, is_active FROM wilayah_search WHERE ${where}
          ORDER BY ${tier}, level, name, id LIMIT ${opts.limit} OFFSET ${opts.offset}`,
    ),
  ]);
  return { total: (totals.results[0] as { total: number } | undefined)?.total ?? 0, rows: rows.results as SearchRow[] };
}

const dialect = new SQLiteAsyncDialect();
function prepare(db: Db, query: SQL): D1PreparedStatement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return db.$client.prepare(text).bind(...params);
}
