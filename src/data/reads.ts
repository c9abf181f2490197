/**
 * One answer's region reads (src/db/reads.ts), as `consistent` (run.ts) hands them to a handler,
 * with the data version riding in the handler's own batches.
 *
 * A batch is one transaction, so a version read in it is the version of every row the batch read.
 * When an answer's last read is such a batch, that version brackets the answer's reads with the
 * version the isolate saw before them (run.ts), and the answer needs no read of the version after
 * them: one D1 round trip less per by-id or BPS answer (docs/performance.md, "One round trip").
 * Which batch was the last is counted here, not told by the service: every use of `db` and every
 * batch is counted, and the version of a batch is the answer's only when nothing used these reads
 * after it (a retired code's by-id answer reads its successors after its batch: then the version is
 * read after them, as without a ride).
 */
import type { RegionDb } from "../db/client";
import { queriesSoFar } from "../db/guard";
import type { RegionReads } from "../db/reads";
import type { Loaded } from "./cache";

/** The data version as a statement a batch can carry, and its result read back (src/data/endpoint.ts, DataVersion). */
export type Ride = { statement(db: RegionDb): D1PreparedStatement; loaded(result: D1Result): Loaded };

export class AnswerReads implements RegionReads {
  readonly #db: RegionDb;
  readonly #ride: Ride | undefined;
  /** Uses of these reads so far: each `db` taken and each batch. */
  #uses = 0;
  /** The last batch that carried the version: its place among the uses, the version, and the D1 guard's count after it. */
  #rode: { at: number; loaded: Loaded; queries: number | undefined } | undefined;

  /** `ride`: the version rides in every batch (consistent asks for it when the version before the reads came from the isolate). */
  constructor(
    db: RegionDb,
    readonly dataKey: string,
    ride?: Ride,
  ) {
    this.#db = db;
    this.#ride = ride;
  }

  get db(): RegionDb {
    this.#uses++;
    return this.#db;
  }

  async batch(statements: D1PreparedStatement[]): Promise<D1Result[]> {
    const at = ++this.#uses;
    const client = this.#db.$client;
    if (!this.#ride) return client.batch(statements);
    const results = await client.batch([...statements, this.#ride.statement(this.#db)]);
    // A use that began while the batch was out may have read after it: that batch is not the last.
    if (this.#uses === at) this.#rode = { at, loaded: this.#ride.loaded(results[statements.length] as D1Result), queries: queriesSoFar(client) };
    return results.slice(0, statements.length);
  }

  /**
   * The version the answer's last batch read, when that batch was the last use of these reads;
   * undefined otherwise (the caller reads the version then). The Worker tests' D1 guard counts every
   * statement: one run after that batch through a handle taken before it would not be bracketed by
   * any version, and is refused here so that a test sees it.
   */
  lastBatchVersion(): Loaded | undefined {
    const rode = this.#rode;
    if (!rode || rode.at !== this.#uses) return undefined;
    if (rode.queries !== undefined && queriesSoFar(this.#db.$client) !== rode.queries) {
      throw new Error("consistent: a region read after the answer's last batch, through a handle taken before it (src/data/reads.ts)");
    }
    return rode.loaded;
  }
}
