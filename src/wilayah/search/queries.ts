/**
 * The search statements (tables: migrations/0006_wilayah_grams.sql, 0009_wilayah_search_context.sql).
 * Each row carries the ranking key and reading id of protocol.ts.
 */
import { type SQL, sql } from "drizzle-orm";
import { bpsCurrentIdSql } from "../bps/queries";
import { TERM_SEPARATOR } from "../normalize";
import { keySql, packedHSql, packedKeySql, packSql, RANK } from "./protocol";

export type SearchRow = {
  id: string;
  name: string;
  alt_name: string;
  level: number;
  parent: string | null;
  is_active: number;
  /** Ranking key (protocol.ts). */
  key: number;
  /** Which reading matched (protocol.ts; 0 for a plain search). */
  h: number;
  /** The region's indexed spellings and, of those, the names of earlier editions only; both null when it has none (former.ts). */
  terms: string | null;
  former: string | null;
};

/** The page's regions with their former names (wilayah_former), and their spellings only when they have some. */
const PAGE_ROWS = `LEFT JOIN wilayah_search w ON w.ord = page.r
    LEFT JOIN wilayah_former f ON f.r = page.r`;
const FORMER_COLUMNS = "CASE WHEN f.terms IS NULL THEN NULL ELSE w.terms END AS terms, f.terms AS former";

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
 * - Anything longer (or 2 characters with punctuation) matches anywhere: one range scan of the
 *   suffix index `wilayah_grams`, grouped by region (`hits`, MATERIALIZED: read for the total and
 *   the page). The total needs every match anyway, and one small statement plans faster than word
 *   starts and inside-a-word matches read apart (docs/performance.md, "Search SQL").
 */
export function searchRegionsSql(opts: { q: string; level?: number; includeInactive: boolean; limit: number; offset: number }): SQL {
  const { q, limit, offset } = opts;
  const filters = [opts.level ? sql`level = ${opts.level}` : undefined, opts.includeInactive ? undefined : sql`is_active = 1`];
  const where = (match: SQL) =>
    sql.join(
      [match, ...filters].filter((f): f is SQL => f !== undefined),
      sql` AND `,
    );

  let ranked: SQL; // (r, tier) CTEs ending in `hits`
  let total: SQL;
  if (TWO_CHAR_WORD.test(q) || [...q].length === 3) {
    ranked = sql`hits AS (SELECT r, tier FROM wilayah_short WHERE ${where(sql`p = ${q}`)})`;
    total = sql`SELECT count(*) AS n FROM hits`;
  } else {
    const match = where(sql`s >= ${q} AND s < ${q + TOP}`);
    const tier = sql`min(CASE WHEN k = 0 AND s = ${q + TERM_SEPARATOR} THEN 0 WHEN k = 0 THEN 1 WHEN k = 1 THEN 2 ELSE 3 END)`;
    ranked = sql`hits AS MATERIALIZED (SELECT r, ${tier} AS tier FROM wilayah_grams WHERE ${match} GROUP BY r)`;
    total = sql`SELECT count(*) AS n FROM hits`;
  }
  return sql`WITH ${ranked}, total AS (${total})
    SELECT total.n AS total, w.id, w.name, w.alt_name, w.level, w.parent, w.is_active, page.tier AS key, 0 AS h, page.r AS r, ${sql.raw(FORMER_COLUMNS)}
    FROM total
    LEFT JOIN (SELECT r, tier FROM hits ORDER BY tier, r LIMIT ${limit} OFFSET ${offset}) page ON 1
    ${sql.raw(PAGE_ROWS)}
    ORDER BY key, r`;
}

type StatementRow = (SearchRow & { total: number; r: number }) | { total: number | null; id: null };

/** Rows of a search statement: the total rides on every row (and on the one row of an empty page). */
export function searchRows(rows: StatementRow[]): { total: number; rows: SearchRow[] } {
  return {
    total: rows[0]?.total ?? 0,
    rows: rows.filter((r): r is SearchRow & { total: number; r: number } => r.id !== null).map(({ total: _, r: __, ...row }) => row),
  };
}

// ---------------------------------------------------------------- planned search (context, hints, codes, typos)

export type PlannedSource =
  | { kind: "code"; id: string; h: number }
  | { kind: "postal"; postal: string; h: number }
  /** A BPS code (digits): the current region it lies in, as a code match. */
  | { kind: "bps"; bps: string; h: number }
  /** `substrings`: its matches inside words count too (the query as typed only). */
  | { kind: "literal"; phrase: string; hint?: number; fuzzy: boolean; substrings: boolean; h: number }
  | { kind: "context"; own: string; hint?: number; context: { text: string; level?: number }[]; fuzzy: boolean; h: number };

/**
 * Inside a typo-corrected rank, the corrected variant's order (closest correction first: service.ts
 * `corrected`) before the region's: `wengi` read as `wenigi` (a letter missed) and as `wangi` are
 * both exact matches a letter off, and the likelier correction's regions come first. Other ranks keep
 * the region's order alone.
 */
const FUZZY_ORDER = `CASE WHEN key >= ${keySql(RANK.FUZZY)} AND key < ${keySql(RANK.SUBSTRING)} THEN h ELSE 0 END`;

/** A string literal: normalised text has no control characters, and SQLite only escapes `'`. */
const str = (v: string) => `'${v.replaceAll("'", "''")}'`;
const int = (v: number) => String(Math.trunc(v));

/** D1 allows only a few terms per compound SELECT: a long UNION ALL is nested in groups of COMPOUND_MAX. */
const COMPOUND_MAX = 4;
function unionAll(parts: string[]): string {
  if (parts.length <= COMPOUND_MAX) return parts.join(" UNION ALL ");
  const groups: string[] = [];
  const size = Math.ceil(parts.length / COMPOUND_MAX);
  for (let i = 0; i < parts.length; i += size) groups.push(`SELECT * FROM (${unionAll(parts.slice(i, i + size))})`);
  return unionAll(groups);
}

/**
 * One statement for a planned search: every reading is a source of (r, key, h) rows; each region
 * keeps its smallest (key, h) (packed, protocol.ts), and the page is ranked by (key, ord). Substring
 * matches of the literal reading as typed (the long tail, `back`) always rank after the other rows
 * (their key is above every other key) and are always counted.
 * Every value is a literal in the text (str/int; D1 binds at most 100 parameters per statement), so
 * the statement is built as one string and handed to drizzle whole: rendering hundreds of `sql`
 * fragments was a good part of a context search's Worker CPU. Most of the SQL time is SQLite planning
 * the statement, so it is kept small: `hits` (each region once, with its best key) is MATERIALIZED
 * and read twice, for the total and the page; when the readings were CTEs read once per use, SQLite
 * planned and ran the union of readings three times. Figures: docs/performance.md, "Search SQL".
 */
export function searchPlannedSql(sources: PlannedSource[], opts: { level?: number; includeInactive: boolean; limit: number; offset: number }): SQL {
  const filters = (t: string) => [opts.level ? ` AND ${t}level = ${int(opts.level)}` : "", opts.includeInactive ? "" : ` AND ${t}is_active = 1`].join("");
  const miss = (t: string, hint?: number) => (hint ? `(${t}level <> ${int(hint)})` : "0");
  const front: string[] = [];
  let back: string | undefined;
  const parents = new Map<string, { name: string; sql: string }>();
  const parentSet = (text: string, level?: number) => {
    const k = `${level ?? 0}|${text}`;
    let set = parents.get(k);
    if (!set) {
      const name = `p${parents.size}`;
      set = {
        name,
        sql: `${name}(a) AS (SELECT r FROM wilayah_grams INDEXED BY wilayah_grams_upper WHERE s >= ${str(text)} AND s < ${str(text + TOP)} AND k < 2 AND level < 4${level ? ` AND level = ${int(level)}` : ""})`,
      };
      parents.set(k, set);
    }
    return set.name;
  };
  const sep = TERM_SEPARATOR;
  for (const src of sources) {
    const h = int(src.h);
    if (src.kind === "code") {
      front.push(`SELECT ord AS r, ${keySql(RANK.CODE)} AS key, ${h} AS h FROM wilayah_search WHERE id = ${str(src.id)}${filters("")}`);
    } else if (src.kind === "bps") {
      front.push(`SELECT ord AS r, ${keySql(RANK.CODE)} AS key, ${h} AS h FROM wilayah_search WHERE id = (${bpsCurrentIdSql(src.bps)})${filters("")}`);
    } else if (src.kind === "postal") {
      front.push(
        `SELECT p.r, ${keySql(RANK.POSTAL)}, ${h} FROM wilayah_postal p JOIN wilayah_search w ON w.ord = p.r WHERE p.postal = ${str(src.postal)}${filters("w.")}`,
      );
    } else if (src.kind === "literal") {
      const p = src.phrase;
      const off = src.fuzzy ? RANK.FUZZY : 0;
      if (TWO_CHAR_WORD.test(p) || [...p].length === 3) {
        front.push(
          `SELECT r, (CASE tier WHEN 0 THEN ${int(off + RANK.EXACT)} WHEN 1 THEN ${int(off + RANK.PREFIX)} WHEN 2 THEN ${int(off + RANK.WORD)} ELSE ${int(RANK.SUBSTRING)} END) * 2 + ${miss("", src.hint)}, ${h}
            FROM wilayah_short WHERE p = ${str(p)}${src.substrings ? "" : " AND tier < 3"}${filters("")}`,
        );
      } else {
        const range = `s >= ${str(p)} AND s < ${str(p + TOP)}`;
        front.push(
          `SELECT r, (CASE WHEN k = 0 AND s = ${str(p + sep)} THEN ${int(off + RANK.EXACT)} WHEN k = 0 THEN ${int(off + RANK.PREFIX)} ELSE ${int(off + RANK.WORD)} END) * 2 + ${miss("", src.hint)}, ${h}
            FROM wilayah_grams WHERE ${range} AND k < 2${filters("")}`,
        );
        if (src.substrings && !back)
          back = `SELECT r, ${keySql(RANK.SUBSTRING, miss("", src.hint))} AS key, ${h} AS h FROM wilayah_grams WHERE ${range} AND k = 2${filters("")}`;
      }
    } else {
      const off = src.fuzzy ? RANK.FUZZY : 0;
      // Each parent word is one CTE (`p0`, `p1`, ...: the provinsi/kabupaten/kecamatan with a word it
      // starts, from the partial index wilayah_grams_upper), shared by every reading that uses it. A
      // reading is skipped unless each of its parent words names some region (the gate); then each
      // candidate of its own name must have an ancestor in each parent word's set.
      const sets = src.context.map((c) => parentSet(c.text, c.level));
      const gate = sets.map((p) => `EXISTS (SELECT 1 FROM ${p})`).join(" AND ");
      // `+x.a`: read the candidate's (at most 3) ancestors by `r` and test each against the set; without
      // the `+`, SQLite seeks (r, a) once per member of the set (hundreds for a word such as `timur`).
      const ancestors = sets.map((p) => ` AND EXISTS (SELECT 1 FROM wilayah_anc x WHERE x.r = g.r AND +x.a IN ${p})`).join("");
      front.push(
        `SELECT g.r, (CASE WHEN g.k = 0 AND g.s = ${str(src.own + sep)} THEN ${int(off + RANK.CONTEXT_EXACT)} WHEN g.k = 0 THEN ${int(off + RANK.CONTEXT_PREFIX)} ELSE ${int(off + RANK.CONTEXT_WORD)} END) * 2 + ${miss("g.", src.hint)}, ${h}
          FROM (SELECT 1 WHERE ${gate}) gate CROSS JOIN wilayah_grams g INDEXED BY wilayah_grams_words
          WHERE g.s >= ${str(src.own)} AND g.s < ${str(src.own + TOP)} AND g.k < 2${filters("g.")}${ancestors}`,
      );
    }
  }
  const backRows = back ? ` UNION ALL ${back}` : "";
  const parentCtes = [...parents.values()].map((p) => `${p.sql}, `).join("");
  return sql.raw(`WITH ${parentCtes}front(r, key, h) AS (${unionAll(front)}),
    hits AS MATERIALIZED (SELECT r, min(${packSql("key", "h")}) AS kh FROM (SELECT r, key, h FROM front${backRows}) GROUP BY r)
    SELECT total.n AS total, w.id, w.name, w.alt_name, w.level, w.parent, w.is_active, page.key AS key, page.h AS h, page.r AS r, ${FORMER_COLUMNS}
    FROM (SELECT count(*) AS n FROM hits) total
    LEFT JOIN (SELECT r, ${packedKeySql("kh")} AS key, ${packedHSql("kh")} AS h FROM hits ORDER BY key, ${FUZZY_ORDER}, r LIMIT ${int(opts.limit)} OFFSET ${int(opts.offset)}) page ON 1
    ${PAGE_ROWS}
    ORDER BY key, ${FUZZY_ORDER}, r`);
}

/** A region under an area (regionsUnderSql): `ctx` is what named the area; `postal` a village's postal code, when asked for. */
export type AreaRegionRow = {
  ctx: string;
  id: string;
  name: string;
  alt_name: string;
  level: number;
  parent: string | null;
  is_active: number;
  postal: string | null;
};

/**
 * SQL: the active regions under each area of `areas` (a subquery of rows `ctx, id, level`): for a
 * kabupaten/kota or a kecamatan its kecamatan and villages (one range of the id index, some 300
 * rows for a kabupaten); for a provinsi its kecamatan only (a range of the kecamatan table's key: a
 * province holds up to 8,500 villages, and a misspelt kecamatan is what its context can still
 * find). The second `CROSS JOIN` keeps that order, and `+c.is_active` keeps SQLite from building
 * an automatic index on is_active over the whole table: otherwise it carried the range over to
 * wilayah_search's id index and read the province's villages too, or indexed every kecamatan
 * (measured on node:sqlite, the kecamatan of Jawa Tengah and Jawa Timur: 52 ms with the first plan,
 * 7 ms with the second, 2 ms with this one; `EXPLAIN QUERY PLAN` shows the kecamatan key's range).
 * Shared by the address resolver's second round and search's context fallback.
 */
export function regionsUnderSql(areas: SQL, { postal }: { postal: boolean }): SQL {
  const postalSql = postal ? sql`k.postal_code` : sql`NULL`;
  const postalJoin = postal ? sql`LEFT JOIN kelurahan k ON k.id = w.id AND w.level = 4` : sql.raw("");
  return sql`WITH areas AS (${areas})
    SELECT a.ctx, w.id, w.name, w.alt_name, w.level, w.parent, w.is_active, ${postalSql} AS postal
    FROM areas a CROSS JOIN wilayah_search w ON w.id > a.id || '.' AND w.id < a.id || '/'
    ${postalJoin}
    WHERE a.level >= 2 AND w.level >= 3 AND w.is_active = 1
    UNION ALL
    SELECT a.ctx, w.id, w.name, w.alt_name, w.level, w.parent, w.is_active, NULL
    FROM areas a CROSS JOIN kecamatan c ON c.id > a.id || '.' AND c.id < a.id || '/'
    CROSS JOIN wilayah_search w ON w.id = c.id
    WHERE a.level = 1 AND +c.is_active = 1 AND w.is_active = 1`;
}

/**
 * The regions a misspelt name followed by its context may mean (service.ts `contextFallback`): those
 * under each kabupaten/kota or provinsi one of `phrases` names exactly (a whole indexed term of that
 * level); `ctx` is the phrase. One statement.
 */
export function contextRegionsSql(phrases: string[]): SQL {
  return regionsUnderSql(
    sql`SELECT DISTINCT t.value AS ctx, w.id, w.level
      FROM json_each(${JSON.stringify(phrases)}) t
      CROSS JOIN wilayah_grams g ON g.s = t.value || char(31) AND g.k = 0 AND g.is_active = 1
      JOIN wilayah_search w ON w.ord = g.r
      WHERE w.level <= 2 AND w.is_active = 1`,
    { postal: false },
  );
}
