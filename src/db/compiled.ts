/**
 * Selects of a fixed shape, rendered to SQL by drizzle once per isolate instead of on every call.
 * Building a query with drizzle's builder (entity checks, the dialect's rendering) was about a
 * fifth of an uncached by-id call's Worker CPU, more than the D1 call itself (docs/performance.md,
 * "BPS codes and the cost of a by-id call"): for the few statements every uncached answer runs, the
 * rendered SQL is kept and only bound. Parameters are drizzle placeholders (`sql.placeholder`).
 */
import { Column, is, Placeholder } from "drizzle-orm";
import type { Db } from "./client";

type Renderable = { toSQL(): { sql: string; params: unknown[] } };

/** Column types whose values drizzle passes through unchanged, so the rows D1 gives need no decoding. */
const PLAIN = new Set(["SQLiteText", "SQLiteInteger", "SQLiteReal"]);

export type CompiledSelect<P extends string, R> = {
  /** The statement with its parameters bound, to run alone or in a D1 batch. */
  statement(db: Db, params: Record<P, unknown>): D1PreparedStatement;
  /** The rows of the statement's result, keyed as the selection is. */
  rows(result: D1Result): R[];
  /** Runs it alone. */
  all(db: Db, params: Record<P, unknown>): Promise<R[]>;
};

/**
 * `fields`: the selection (key to column; each column's name must be unique in it, since D1 names
 * result columns by the column's name); `build`: the drizzle query over that selection, parameters
 * as `sql.placeholder(name)`.
 */
export function compiledSelect<R, P extends string = string>(fields: Record<string, Column>, build: (db: Db) => Renderable): CompiledSelect<P, R> {
  const names = Object.entries(fields).map(([key, column]) => {
    if (!is(column, Column) || !PLAIN.has(column.columnType)) throw new Error(`compiledSelect: ${key} is not a plain text, integer or real column`);
    return [key, column.name] as const;
  });
  if (new Set(names.map(([, name]) => name)).size !== names.length) throw new Error("compiledSelect: two selected columns share a name");
  let rendered: { sql: string; params: unknown[] } | undefined;
  const statement = (db: Db, params: Record<P, unknown>) => {
    rendered ??= build(db).toSQL();
    const values = rendered.params.map((p) => (is(p, Placeholder) ? params[p.name as P] : p));
    return db.$client.prepare(rendered.sql).bind(...values);
  };
  const rows = (result: D1Result) =>
    (result.results as Record<string, unknown>[]).map((row) => {
      const out: Record<string, unknown> = {};
      for (const [key, name] of names) out[key] = row[name];
      return out as R;
    });
  return { statement, rows, all: async (db, params) => rows(await statement(db, params).all()) };
}
