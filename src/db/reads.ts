/**
 * What the reads of one answer share, as a value handed to its handler and to the services that
 * need more than a handle (their parameter's type says so): the D1 handle all the reads go through
 * (one session with read replication), the loaded data's checksum when it was read before them,
 * and batches the data version may ride in. The data runner makes one per answer
 * (src/data/reads.ts); any other reader makes a plain one with `regionReads(env)`.
 */
import { type RegionDb, regionDb } from "./client";

export interface RegionReads {
  /** The handle every regional query takes: drizzle over the answer's D1 session, or the binding. */
  readonly db: RegionDb;
  /**
   * The loaded data's checksum, read before these reads; undefined when not known. What a service
   * keeps per isolate for the loaded data (the history room's editions, the sources) is kept under
   * it, with no statement of its own to learn which data is loaded.
   */
  readonly dataKey: string | undefined;
  /**
   * One D1 batch (one round trip, one transaction) of statements prepared on `db.$client`. In an
   * answer the data version's statement rides along: when nothing is read through these reads after
   * the batch, the version it read is the answer's, and no read of the version follows
   * (src/data/reads.ts). Elsewhere a plain batch.
   */
  batch(statements: D1PreparedStatement[]): Promise<D1Result[]>;
}

/** Reads that share nothing but `db`: a plain batch, the checksum unknown unless given. */
export function plainReads(db: RegionDb, dataKey?: string): RegionReads {
  return { db, dataKey, batch: (statements) => db.$client.batch(statements) };
}

/** Plain reads of the region data outside an answer (a cron, the feed, the demo): the handle made on first use. */
export function regionReads(env: Env): RegionReads {
  let db: RegionDb | undefined;
  const handle = () => {
    db ??= regionDb(env);
    return db;
  };
  return {
    get db() {
      return handle();
    },
    dataKey: undefined,
    batch: (statements) => handle().$client.batch(statements),
  };
}
