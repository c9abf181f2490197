/**
 * Development only (`npm run bench`): how many D1 rows a request read. With ENVIRONMENT =
 * "development" and D1_STATS = "on", the request's `DB` binding is wrapped so every statement's
 * `meta.rows_read` is summed, and the sum is sent back as `x-d1-rows-read`. D1 gives no meta for
 * `raw()` (drizzle reads selects that way), so a read through `raw()` runs once more through `all()`
 * to be counted: the sum is exact, the timing is not. Never on in production (the var defaults to "off").
 */
import type { MiddlewareHandler } from "hono";
import type { BaseEnv } from "./context";

type Counter = { rows: number };

const READ = /^\s*(SELECT|WITH)\b/i;

function countingStatement(stmt: D1PreparedStatement, sql: string, counter: Counter): D1PreparedStatement {
  const count = <T extends { meta?: { rows_read?: number } }>(r: T) => {
    counter.rows += r.meta?.rows_read ?? 0;
    return r;
  };
  return new Proxy(stmt, {
    get(target, prop) {
      if (prop === "bind") return (...values: unknown[]) => countingStatement(target.bind(...values), sql, counter);
      if (prop === "all") return () => target.all().then(count);
      if (prop === "run") return () => target.run().then(count);
      if (prop === "first")
        return async (column?: string) => {
          if (READ.test(sql)) count(await target.all());
          return column === undefined ? target.first() : target.first(column);
        };
      if (prop === "raw")
        return async (options?: { columnNames?: boolean }) => {
          if (READ.test(sql)) count(await target.all());
          return target.raw(options as { columnNames: true });
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function countingDb(db: D1Database, counter: Counter): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => countingStatement(target.prepare(sql), sql, counter);
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements);
          for (const r of results) counter.rows += r.meta?.rows_read ?? 0;
          return results;
        };
      if (prop === "withSession") return () => countingDb(target, counter);
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export const d1Stats: MiddlewareHandler<BaseEnv> = async (c, next) => {
  if (c.env.D1_STATS !== "on" || c.env.ENVIRONMENT !== "development") return next();
  const counter: Counter = { rows: 0 };
  c.env = { ...c.env, DB: countingDb(c.env.DB, counter) };
  await next();
  // Answers built elsewhere (the MCP SDK's) may have immutable headers: copy the response then.
  const res = new Response(c.res.body, c.res);
  res.headers.set("x-d1-rows-read", String(counter.rows));
  c.res = res;
};
