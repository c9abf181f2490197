/** Bulk jobs (src/jobs). */
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * A bulk job: a file of addresses or codes (stored in R2 as uploaded, `jobs/<id>/input`) processed
 * in chunks on the jobs queue. `rows_done` and `chunks_done` are sums over `job_chunks`, written
 * with each chunk, so a chunk recorded twice changes nothing. `header`: the CSV header as JSON.
 * State: queued -> running -> done | failed | cancelled (final states never change).
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(), // job_...
    userId: text("user_id").notNull(),
    keyId: text("key_id").notNull(),
    kind: text("kind", { enum: ["address", "convert"] }).notNull(),
    format: text("format", { enum: ["csv", "jsonl"] }).notNull(),
    column: text("column").notNull(),
    header: text("header"),
    state: text("state", { enum: ["queued", "running", "done", "failed", "cancelled"] }).notNull(),
    rowsTotal: integer("rows_total").notNull(),
    rowsDone: integer("rows_done").notNull().default(0),
    rowsWarned: integer("rows_warned").notNull().default(0),
    chunksTotal: integer("chunks_total").notNull(),
    chunksDone: integer("chunks_done").notNull().default(0),
    inputBytes: integer("input_bytes").notNull(),
    credits: integer("credits").notNull(), // reserved at acceptance
    error: text("error"),
    createdAt: integer("created_at").notNull(),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
    expiresAt: integer("expires_at").notNull(), // the input and result are deleted after it
    // The last sign of life (acceptance, a chunk recorded, a re-send): the watchdog re-sends the
    // chunks of a job that shows none for a while (src/jobs/watchdog.ts).
    progressAt: integer("progress_at"),
    // When a final job's end steps (reservation released, webhooks told) were both confirmed; until
    // then the watchdog runs them again.
    settledAt: integer("settled_at"),
    // The region data versions its rows were answered from, comma-separated (two when a seed landed mid-job).
    dataVersions: text("data_versions"),
    // convert jobs: whose codes the file holds (null: kemendagri, as before BPS codes; address jobs: null)
    codeSystem: text("code_system", { enum: ["kemendagri", "bps"] }),
  },
  (t) => [index("jobs_user_idx").on(t.userId, t.createdAt), index("jobs_expiry_idx").on(t.expiresAt), index("jobs_state_idx").on(t.state, t.progressAt)],
);

/** A chunk of a job whose result is in R2 (`jobs/<id>/out/<chunk>`) and whose rows are charged: recorded once. */
export const jobChunks = sqliteTable(
  "job_chunks",
  {
    jobId: text("job_id").notNull(),
    chunk: integer("chunk").notNull(),
    rows: integer("rows").notNull(),
    warned: integer("warned").notNull(),
    doneAt: integer("done_at").notNull(),
    dataVersion: text("data_version"), // the version of the region data the chunk's rows were answered from
  },
  (t) => [primaryKey({ columns: [t.jobId, t.chunk] })],
);
