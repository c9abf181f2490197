/**
 * A D1 binding over node:sqlite, for running the Worker's own services and SQL on a local copy of
 * the data (the reverse-geocoding quality test, `npm run bench:search-sql`). Only what drizzle's D1
 * driver calls: prepare/bind/all/raw/first/run and batch. `onStatement` sees each statement run
 * (its SQL, parameters and time), for tests that inspect the queries and benchmarks that time them.
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { drizzle } from "drizzle-orm/d1";

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
