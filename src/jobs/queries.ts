/** Reads and writes of the job tables (src/db/schema.ts, "bulk jobs"); only this room touches them. */
import { and, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { batch, type Db } from "../db/client";
import { jobChunks, jobs } from "../db/schema";

export type JobRow = typeof jobs.$inferSelect;
export type JobState = JobRow["state"];
export const FINAL_STATES: readonly JobState[] = ["done", "failed", "cancelled"];

export async function insertJob(db: Db, row: typeof jobs.$inferInsert): Promise<void> {
  await db.insert(jobs).values(row);
}

export async function findJob(db: Db, id: string): Promise<JobRow | undefined> {
  return (await db.select().from(jobs).where(eq(jobs.id, id)).limit(1))[0];
}

export async function findJobOfUser(db: Db, userId: string, id: string): Promise<JobRow | undefined> {
  return (
    await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.id, id), eq(jobs.userId, userId)))
      .limit(1)
  )[0];
}

export async function jobsOfUser(db: Db, userId: string, limit: number, offset: number): Promise<{ total: number; rows: JobRow[] }> {
  const [totals, rows] = await db.batch([
    db.select({ n: sql<number>`count(*)` }).from(jobs).where(eq(jobs.userId, userId)),
    db.select().from(jobs).where(eq(jobs.userId, userId)).orderBy(desc(jobs.createdAt), desc(jobs.id)).limit(limit).offset(offset),
  ]);
  return { total: Number(totals[0]?.n ?? 0), rows };
}

/**
 * Records a chunk done (once: a second recording changes nothing) and sets the job's sums from its
 * chunks, in one batch; a job not yet running starts. Final states are left as they are.
 */
export async function recordChunk(
  db: Db,
  c: { jobId: string; chunk: number; rows: number; warned: number; at: number; dataVersion: string },
): Promise<JobRow | undefined> {
  await batch(db, [
    sql`INSERT OR IGNORE INTO job_chunks (job_id, chunk, rows, warned, done_at, data_version) VALUES (${c.jobId}, ${c.chunk}, ${c.rows}, ${c.warned}, ${c.at}, ${c.dataVersion})`,
    sql`UPDATE jobs SET
          rows_done = (SELECT coalesce(sum(rows), 0) FROM job_chunks WHERE job_id = ${c.jobId}),
          rows_warned = (SELECT coalesce(sum(warned), 0) FROM job_chunks WHERE job_id = ${c.jobId}),
          chunks_done = (SELECT count(*) FROM job_chunks WHERE job_id = ${c.jobId}),
          data_versions = (SELECT group_concat(v) FROM (SELECT DISTINCT data_version AS v FROM job_chunks WHERE job_id = ${c.jobId} AND data_version IS NOT NULL ORDER BY v)),
          state = CASE WHEN state = 'queued' THEN 'running' ELSE state END,
          started_at = coalesce(started_at, ${c.at}),
          progress_at = ${c.at}
        WHERE id = ${c.jobId}`,
  ]);
  return findJob(db, c.jobId);
}

/** queued/running -> `to`, once: the row as written when this call made the change, else undefined (a final state never changes). */
export async function finishJob(db: Db, id: string, to: "done" | "failed" | "cancelled", at: number, error?: string): Promise<JobRow | undefined> {
  const [row] = await db
    .update(jobs)
    .set({ state: to, finishedAt: at, error: error ?? null })
    .where(and(eq(jobs.id, id), inArray(jobs.state, ["queued", "running"])))
    .returning();
  return row;
}

/** The chunks of a job that are done, in order. */
export async function doneChunks(db: Db, jobId: string): Promise<number[]> {
  return (await db.select({ chunk: jobChunks.chunk }).from(jobChunks).where(eq(jobChunks.jobId, jobId)).orderBy(jobChunks.chunk)).map((r) => r.chunk);
}

/** Jobs whose files are past their keeping time (the cron deletes the files, then the rows). */
export async function expiredJobs(db: Db, now: number, limit: number): Promise<JobRow[]> {
  return db.select().from(jobs).where(lt(jobs.expiresAt, now)).limit(limit);
}

export async function deleteJobs(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await batch(db, [db.delete(jobChunks).where(inArray(jobChunks.jobId, ids)), db.delete(jobs).where(inArray(jobs.id, ids))]);
}

/** Final jobs whose end steps are not confirmed, finished before `before`. */
export async function unsettledJobs(db: Db, before: number, limit: number): Promise<JobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(and(inArray(jobs.state, FINAL_STATES as JobState[]), isNull(jobs.settledAt), lt(jobs.finishedAt, before)))
    .limit(limit);
}

export async function markSettled(db: Db, id: string, at: number): Promise<void> {
  await db.update(jobs).set({ settledAt: at }).where(eq(jobs.id, id));
}

/** Jobs not over whose last sign of life is before `before` (oldest first). */
export async function stalledJobs(db: Db, before: number, limit: number): Promise<JobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(and(inArray(jobs.state, ["queued", "running"]), lt(jobs.progressAt, before)))
    .orderBy(jobs.progressAt)
    .limit(limit);
}

/** A sign of life (the watchdog re-sent chunks): the job is not looked at again for a while. */
export async function touchJob(db: Db, id: string, at: number): Promise<void> {
  await db.update(jobs).set({ progressAt: at }).where(eq(jobs.id, id));
}
