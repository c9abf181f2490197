import { is, SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";

export type Db = ReturnType<typeof primaryDb>;

/**
 * Read-write handle on the primary: accounts, keys, billing. No `schema` is passed: we write queries
 * with the query builder and `sql`, never drizzle's relational `db.query.*`, and with a schema
 * drizzle rebuilds its relational config on every handle, on every call, for nothing
 * (docs/performance.md, "Worker CPU").
 */
export function primaryDb(env: Env) {
  return handleOf(env.DB);
}

/**
 * One drizzle handle per D1 binding or session object: a handle holds no request state, and making
 * one (its session, dialect and logger) on every call was a few percent of an uncached data call's
 * CPU (docs/performance.md, "BPS codes and the cost of a by-id call").
 */
const handles = new WeakMap<object, ReturnType<typeof drizzle<Record<string, never>, D1Database>>>();
function handleOf(client: D1Database) {
  let db = handles.get(client);
  if (!db) {
    db = drizzle(client);
    handles.set(client, db);
  }
  return db;
}

/**
 * The D1 client for data that changes only with a seed (the wilayah tables). With
 * D1_READ_REPLICATION = "auto" (set it when read replication is on for the database: docs/deploy.md,
 * "Read replication") it is a new D1 session, which the nearest replica may serve; otherwise the
 * binding itself (the primary). A session is not free: each query carries and returns a bookmark,
 * which costs Worker CPU on every call and buys nothing without replicas (docs/performance.md,
 * "Worker CPU").
 */
function regionClient(env: Env): D1Database | D1DatabaseSession {
  return env.D1_READ_REPLICATION === "auto" ? env.DB.withSession("first-unconstrained") : env.DB;
}

/** The handle every regional-data query takes: drizzle over the binding or a D1 session. */
export type RegionDb = Db;

/**
 * A handle on the region data: a session of its own with read replication, the primary otherwise.
 * One answer's reads all go through one handle, made once by the data runner (src/data/run.ts) and
 * handed to its handler in its region reads (src/db/reads.ts); a reader outside an answer (the
 * webhook publisher, the feed, the demo) makes one with `regionReads(env)`.
 */
export function regionDb(env: Env): RegionDb {
  // A D1DatabaseSession has the prepare/batch surface drizzle uses; it only lacks exec/dump.
  return handleOf(regionClient(env) as D1Database);
}

const dialect = new SQLiteAsyncDialect();

/**
 * A D1 batch (one round trip, one transaction) of drizzle query builders and raw `sql` queries.
 * drizzle 0.45's own `db.batch` cannot take raw `sql` with parameters (SQLiteRaw has no prepared
 * statement), so this compiles each item itself and batches on the same client or session.
 */
export async function batch(db: Db, items: (SQL | { toSQL(): { sql: string; params: unknown[] } })[]): Promise<D1Result[]> {
  const statements = items.map((item) => {
    const q = is(item, SQL) ? dialect.sqlToQuery(item) : (item as { toSQL(): { sql: string; params: unknown[] } }).toSQL();
    return db.$client.prepare(q.sql).bind(...q.params);
  });
  return db.$client.batch(statements);
}
