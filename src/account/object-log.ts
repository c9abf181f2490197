/**
 * The request log as the account object keeps it: lines written once each however often sent,
 * read back never older than the plan keeps, and its days past keeping dropped at most once an
 * hour (or its oldest days early, when the object's storage grows too big). The lines themselves
 * are in request-store.ts. Part of the object (object.ts).
 */
import { type Exec, type LoggedCall, type LogQuery, RequestLogStore } from "./request-store";
import { requestLogDays } from "./rules";

/** The request log past this size (bytes of the object's whole SQLite) drops its oldest day early: the object's storage holds 10 GB. */
const LOG_MAX_BYTES = 4 * 1024 ** 3;
/** How often the request log's days past keeping are dropped (at most). */
const LOG_PRUNE_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export class RequestLog {
  readonly #store: RequestLogStore;
  readonly #size: () => number;
  /** When the log last dropped its days past keeping (this object's life; 0: not yet). */
  #prunedAt = 0;

  /** `size`: the object's SQLite size in bytes now. */
  constructor(exec: Exec, size: () => number) {
    this.#store = new RequestLogStore(exec);
    this.#size = size;
  }

  /**
   * Writes the lines not written yet and, at most once an hour, drops the days past the plan's
   * keeping (`plan`: the account's, read only then). Returns the rows written (the cost the
   * platform bills: one per line).
   */
  async add(calls: LoggedCall[], now: number, plan: () => Promise<string | undefined>): Promise<number> {
    const written = this.#store.add(calls);
    if (now - this.#prunedAt >= LOG_PRUNE_MS) {
      this.#prunedAt = now;
      const current = await plan();
      if (current) this.#store.dropBefore(now - requestLogDays(current) * DAY_MS);
      // Far more than any plan's keeping would hold: the oldest day goes first.
      for (let day = this.#store.oldestDay(); day && this.#size() > LOG_MAX_BYTES; day = this.#store.oldestDay()) this.#store.dropDay(day);
    }
    return written;
  }

  /** A page of the log, newest first, never older than the plan keeps (`keptDays`). */
  find(query: LogQuery, now: number, plan: string): { calls: LoggedCall[]; keptDays: number } {
    const keptDays = requestLogDays(plan);
    const calls = this.#store.find({ ...query, from: Math.max(query.from, now - keptDays * DAY_MS) });
    return { calls, keptDays };
  }
}
