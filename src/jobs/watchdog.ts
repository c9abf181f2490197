/**
 * The jobs' watchdog (the 5-minute cron): what the queue alone cannot promise. A message the queue
 * gave up on (every retry failed: D1 or R2 down for long) would leave its job running forever, and
 * a job's end steps (its reservation released, its webhook) can fail after its state was written.
 * So, each run:
 * - a final job whose end steps are not confirmed has them run again (they are idempotent);
 * - a job with no sign of life for STALL_MS has its chunks not yet recorded sent again (from the
 *   chunk index kept beside its input). A chunk is written, charged and recorded once however often
 *   it arrives, so a re-send of a chunk that was only slow costs work, never a row or a call.
 */
import { primaryDb } from "../db/client";
import { log } from "../lib/log";
import type { ChunkRange } from "./input";
import { doneChunks, finishJob, stalledJobs, touchJob, unsettledJobs } from "./queries";
import { chunksKey, enqueueChunks, failJob, jobEnded } from "./service";

/** A job silent this long has its missing chunks re-sent (the queue's own retries of a chunk span about 6 minutes). */
export const STALL_MS = 20 * 60_000;
/** End steps are retried only for jobs that ended at least this long ago (the consumer's own attempt comes first). */
const SETTLE_GRACE_MS = 60_000;
/** Jobs looked at per run, per kind of trouble. */
const WATCH_BATCH = 20;

export async function watchJobs(env: Env, now = Date.now()): Promise<{ settled: number; resent: number }> {
  const db = primaryDb(env);
  const unsettled = await unsettledJobs(db, now - SETTLE_GRACE_MS, WATCH_BATCH);
  for (const job of unsettled) await jobEnded(env, job.id);
  let resent = 0;
  for (const job of await stalledJobs(db, now - STALL_MS, WATCH_BATCH)) {
    const index = await env.JOBS.get(chunksKey(job.id));
    if (!index) {
      await failJob(env, job.id, "The job's input file is gone.");
      continue;
    }
    const done = new Set(await doneChunks(db, job.id));
    const missing = (JSON.parse(await index.text()) as ChunkRange[]).filter((c) => !done.has(c.index));
    if (missing.length === 0) {
      // Every chunk recorded, but the step that ends the job never ran to the end.
      if (await finishJob(db, job.id, "done", now)) await jobEnded(env, job.id);
      continue;
    }
    await touchJob(db, job.id, now);
    await enqueueChunks(env, job.id, missing);
    resent += missing.length;
    log.warn("job_chunks_resent", { job_id: job.id, chunks: missing.length });
  }
  return { settled: unsettled.length, resent };
}
