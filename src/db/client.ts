import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = ReturnType<typeof primaryDb>;

/** Read-write handle on the primary: accounts, keys, billing. */
export function primaryDb(env: Env) {
  return drizzle(env.DB, { schema });
}

/**
 * Handle for data that changes only with a seed (the wilayah tables). A D1 session that may be
 * served by the nearest read replica when read replication is on (README: "Read replication").
 */
export function replicaDb(env: Env): Db {
  // A D1DatabaseSession has the prepare/batch surface drizzle uses; it only lacks exec/dump.
  return drizzle(env.DB.withSession("first-unconstrained") as unknown as D1Database, { schema });
}
