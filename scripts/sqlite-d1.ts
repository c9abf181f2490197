/**
 * A D1 binding over node:sqlite, for running the Worker's own services and SQL on a local copy of
 * the data (the reverse-geocoding quality test, `npm run bench:search-sql`). Only what drizzle's D1
 * driver calls: prepare/bind/all/raw/first/run and batch. `onStatement` sees each statement run
 * (its SQL, parameters and time), for tests that inspect the queries and benchmarks that time them.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { drizzle } from "drizzle-orm/d1";
import { root } from "./lib.ts";

export type StatementRun = { sql: string; params: SQLInputValue[]; ms: number };

export function sqliteD1(db: DatabaseSync, onStatement?: (run: StatementRun) => void) {
  const timed = <T>(sql: string, params: SQLInputValue[], run: () => T): T => {
    const t = performance.now();
    const out = run();
    onStatement?.({ sql, params, ms: performance.now() - t });
    return out;
  };
  const statement = (sql: string, params: SQLInputValue[] = []) => ({
    bind: (...p: SQLInputValue[]) => statement(sql, p),
    all: async () => ({ results: timed(sql, params, () => db.prepare(sql).all(...params)), success: true, meta: {} }),
    raw: async () =>
      timed(sql, params, () => {
        const s = db.prepare(sql);
        s.setReturnArrays(true);
        return s.all(...params) as unknown as unknown[][];
      }),
    first: async () => timed(sql, params, () => db.prepare(sql).get(...params) ?? null),
    run: async () => ({ success: true, meta: { changes: Number(timed(sql, params, () => db.prepare(sql).run(...params)).changes) } }),
  });
  const d1 = {
    prepare: (sql: string) => statement(sql),
    batch: (list: ReturnType<typeof statement>[]) => Promise.all(list.map((s) => s.all())),
    withSession: () => d1,
  };
  return d1;
}

/** drizzle over sqliteD1: the handle the wilayah services take. */
export const sqliteDb = (db: DatabaseSync, onStatement?: (run: StatementRun) => void) => drizzle(sqliteD1(db, onStatement) as unknown as D1Database);

const DB_FILE = join(root, ".wrangler", "search-sql.db");
const SEED = join(root, "seed", "wilayah.sql");

/**
 * A SQLite file migrated like D1 and holding seed/wilayah.sql (the search index included, no village
 * boundaries), built when missing or older than the seed or a migration; its path. Shared by `npm run
 * bench:search-sql` and scripts/address-quality.ts.
 */
export function searchSqlDb(): string {
  const migrations = readdirSync(join(root, "migrations"))
    .filter((f) => f.endsWith(".sql"))
    .sort();
  const newest = Math.max(statSync(SEED).mtimeMs, ...migrations.map((f) => statSync(join(root, "migrations", f)).mtimeMs));
  if (existsSync(DB_FILE) && statSync(DB_FILE).mtimeMs > newest) return DB_FILE;
  mkdirSync(join(root, ".wrangler"), { recursive: true });
  rmSync(DB_FILE, { force: true });
  const db = new DatabaseSync(DB_FILE);
  for (const f of migrations) db.exec(readFileSync(join(root, "migrations", f), "utf8"));
  const started = performance.now();
  let slowest = { ms: 0, sql: "" };
  for (const statement of readFileSync(SEED, "utf8").split("\n")) {
    if (!statement.trim() || statement.startsWith("--")) continue;
    const t = performance.now();
    db.exec(statement);
    const ms = performance.now() - t;
    if (ms > slowest.ms) slowest = { ms, sql: statement.slice(0, 80) };
  }
  console.log(`seed loaded in ${((performance.now() - started) / 1000).toFixed(1)} s; slowest statement ${slowest.ms.toFixed(0)} ms: ${slowest.sql}...`);
  db.close();
  return DB_FILE;
}
