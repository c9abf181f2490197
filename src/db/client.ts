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
 * The D1 handle for data that changes only with a seed (the wilayah tables). With
 * D1_READ_REPLICATION = "auto" (set it when read replication is on for the database: README, "Read
 * replication") it is a D1 session, which the nearest replica may serve; otherwise the binding itself
 * (the primary). A session is not free: each query carries and returns a bookmark, which costs Worker
 * CPU on every call and buys nothing without replicas (docs/performance.md, "Worker CPU").
 */
export function regionReads(env: Env): D1Database | D1DatabaseSession {
  const pinned = (env as PinnedEnv)[SESSION];
  if (pinned) return pinned;
  return env.D1_READ_REPLICATION === "auto" ? env.DB.withSession("first-unconstrained") : env.DB;
}

const SESSION = Symbol("region reads session");
type PinnedEnv = Env & { [SESSION]?: D1DatabaseSession };

/**
 * `env` with one D1 session for all the region reads made with it (read replication on): the
 * reads of one answer, and the data version read around them, are one sequence a replica serves in
 * order, so an answer reads one version of the data (src/data/run.ts). Without replication: `env`.
 */
export function withRegionSession(env: Env): Env {
  if (env.D1_READ_REPLICATION !== "auto") return env;
  const pinned = Object.create(env) as PinnedEnv;
  pinned[SESSION] = env.DB.withSession("first-unconstrained");
  return pinned;
}

/** The handle every regional-data query takes: drizzle over regionReads. */
export type RegionDb = Db;

export function regionDb(env: Env): RegionDb {
  // A D1DatabaseSession has the prepare/batch surface drizzle uses; it only lacks exec/dump.
  const key = (env as KeyedEnv)[DATA_KEY];
  const ride = (env as RiddenEnv)[RIDE];
  const db = handleOf(regionReads(env) as D1Database);
  if (key === undefined && ride === undefined) return db;
  const marked = Object.create(db) as RegionDb & { [DATA_KEY]?: string; [RIDE]?: VersionRide };
  marked[DATA_KEY] = key;
  marked[RIDE] = ride;
  return marked;
}

const DATA_KEY = Symbol("loaded data key");
type KeyedEnv = Env & { [DATA_KEY]?: string };

/**
 * `env` (or a region handle) marked with the loaded data's checksum, read by the caller before its
 * reads: what a service keeps per isolate (the history room's editions) is kept for that key and
 * read again for another, with no statement of its own (src/data/run.ts reads the key around every answer).
 */
export function withDataKey<T extends object>(target: T, key: string): T {
  const keyed = Object.create(target) as T & { [DATA_KEY]?: string };
  keyed[DATA_KEY] = key;
  return keyed;
}

/** The loaded data's key a handle was made with (undefined: made without one). */
export const dataKeyOf = (db: RegionDb): string | undefined => (db as RegionDb & { [DATA_KEY]?: string })[DATA_KEY];

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

// ---------------------------------------------------------------- the data version, read in a handler's own batch

/**
 * The data version riding in a handler's own D1 batch: a batch is one transaction, so a version read
 * in it is the version of every row the batch read. `consistent` (src/data/run.ts) attaches a ride to
 * the env of an uncached answer; a query that batches its reads adds the version's statement
 * (`ridingBatch`), and the service, once it knows that batch was its last read, says so
 * (`lastRead`). The answer then needs no separate read of the version after it: one D1 round trip
 * less per by-id or BPS answer (docs/performance.md, "One round trip"). Forgetting `lastRead` only
 * costs that round trip; a read after `lastRead` would not be bracketed, and the D1 guard of the
 * Worker tests refuses it (src/data/run.ts).
 */
export type VersionRide = {
  /** The version's statement, prepared on the batch's own client. */
  statement(db: Db): D1PreparedStatement;
  /** Its result, from the batch. */
  took(result: D1Result): void;
  /** The service read nothing after the batch that carried the version. */
  last(): void;
};

const RIDE = Symbol("version ride");
type RiddenEnv = Env & { [RIDE]?: VersionRide };

/** `env` whose region handles carry `ride` (regionDb). */
export function withRide(env: Env, ride: VersionRide): Env {
  const ridden = Object.create(env) as RiddenEnv;
  ridden[RIDE] = ride;
  return ridden;
}

const rideOf = (db: RegionDb): VersionRide | undefined => (db as RegionDb & { [RIDE]?: VersionRide })[RIDE];

/** A D1 batch of region reads (prepared on `db.$client`), the data version read in it when the answer asks (see VersionRide). */
export async function ridingBatch(db: RegionDb, statements: D1PreparedStatement[]): Promise<D1Result[]> {
  const ride = rideOf(db);
  if (!ride) return db.$client.batch(statements);
  const results = await db.$client.batch([...statements, ride.statement(db)]);
  ride.took(results[statements.length] as D1Result);
  return results.slice(0, statements.length);
}

/** The caller read nothing of the region data after its last `ridingBatch` (see VersionRide). */
export function lastRead(db: RegionDb): void {
  rideOf(db)?.last();
}
