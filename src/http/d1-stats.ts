/**
 * Development only (`npm run bench`): what a request cost against the platform's per-invocation
 * limits (docs/performance.md, "Production limits"). With ENVIRONMENT = "development" and D1_STATS =
 * "on", the request's bindings are wrapped and the counts sent back as headers:
 * - `x-d1-rows-read`: every statement's `meta.rows_read`, summed. D1 gives no meta for `raw()`
 *   (drizzle reads selects that way), so a read through `raw()` runs once more through `all()` to be
 *   counted: the sum is exact, the timing is not.
 * - `x-d1-queries`: statements run (each statement of a batch is one), against D1's queries per invocation;
 *   `x-d1-round-trips`: calls to D1 (a batch is one), what a call waits on.
 * - `x-kv-ops`: KV reads, writes, deletes and lists; `x-do-requests`: calls on a Durable Object stub
 *   (RPC methods and fetch), of the `ACCOUNT` namespace; `x-subrequests`: outbound `fetch()`.
 * Never on in production (the var defaults to "off").
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import type { BaseEnv } from "./context";

type Counter = { rows: number; queries: number; trips: number; kv: number; durableObject: number; fetches: number; inFetch?: boolean };

const READ = /^\s*(SELECT|WITH)\b/i;

function countingStatement(stmt: D1PreparedStatement, sql: string, counter: Counter): D1PreparedStatement {
  const count = <T extends { meta?: { rows_read?: number } }>(r: T) => {
    counter.rows += r.meta?.rows_read ?? 0;
    return r;
  };
  return new Proxy(stmt, {
    get(target, prop) {
      if (prop === "bind") return (...values: unknown[]) => countingStatement(target.bind(...values), sql, counter);
      if (prop === "all")
        return () => {
          counter.queries++;
          counter.trips++;
          return target.all().then(count);
        };
      if (prop === "run")
        return () => {
          counter.queries++;
          counter.trips++;
          return target.run().then(count);
        };
      // The extra all() that counts rows is not a query of the request's own.
      if (prop === "first")
        return async (column?: string) => {
          counter.queries++;
          counter.trips++;
          if (READ.test(sql)) count(await target.all());
          return column === undefined ? target.first() : target.first(column);
        };
      if (prop === "raw")
        return async (options?: { columnNames?: boolean }) => {
          counter.queries++;
          counter.trips++;
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
          counter.queries += statements.length;
          counter.trips++;
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

const KV_OPS = new Set(["get", "getWithMetadata", "put", "delete", "list"]);

function countingKv(kv: KVNamespace, counter: Counter): KVNamespace {
  return new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (typeof prop === "string" && KV_OPS.has(prop))
        return (...args: unknown[]) => {
          counter.kv++;
          return Reflect.apply(value, target, args);
        };
      return value.bind(target);
    },
  });
}

/** Every method called on a stub is one request to the object (an RPC or a fetch). */
function countingStub<T extends object>(stub: T, counter: Counter): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        counter.durableObject++;
        return Reflect.apply(value, target, args);
      };
    },
  });
}

function countingNamespace<T extends object>(ns: T, counter: Counter): T {
  return new Proxy(ns, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop === "get" || prop === "getByName") return (...args: unknown[]) => countingStub(Reflect.apply(value, target, args) as object, counter);
      return value.bind(target);
    },
  });
}

/**
 * Outbound fetch is global, not a binding: it is wrapped once (again after a test replaced it) and
 * counts into the counter of the request it runs in, so concurrent requests keep their own counts.
 */
const current = new AsyncLocalStorage<Counter>();
/** The counting fetch this module last installed; anything else found in its place (a test's spy) is wrapped again. */
let installed: typeof fetch | undefined;
function countFetches() {
  if (globalThis.fetch === installed) return;
  const underlying = globalThis.fetch;
  const counting = ((...args: Parameters<typeof fetch>) => {
    const counter = current.getStore();
    // Wrappers may nest (one around a spy around an earlier one): only the outermost counts.
    if (!counter || counter.inFetch) return underlying(...args);
    counter.fetches++;
    counter.inFetch = true;
    try {
      return underlying(...args);
    } finally {
      counter.inFetch = false;
    }
  }) as typeof fetch;
  installed = counting;
  globalThis.fetch = counting;
}

export const d1Stats: MiddlewareHandler<BaseEnv> = async (c, next) => {
  if (c.env.D1_STATS !== "on" || c.env.ENVIRONMENT !== "development") return next();
  const counter: Counter = { rows: 0, queries: 0, trips: 0, kv: 0, durableObject: 0, fetches: 0 };
  c.env = { ...c.env, DB: countingDb(c.env.DB, counter), KV: countingKv(c.env.KV, counter), ACCOUNT: countingNamespace(c.env.ACCOUNT, counter) };
  countFetches();
  await current.run(counter, next);
  // Answers built elsewhere (the MCP SDK's) may have immutable headers: copy the response then.
  const res = new Response(c.res.body, c.res);
  res.headers.set("x-d1-rows-read", String(counter.rows));
  res.headers.set("x-d1-queries", String(counter.queries));
  res.headers.set("x-d1-round-trips", String(counter.trips));
  res.headers.set("x-kv-ops", String(counter.kv));
  res.headers.set("x-do-requests", String(counter.durableObject));
  res.headers.set("x-subrequests", String(counter.fetches));
  c.res = res;
};
