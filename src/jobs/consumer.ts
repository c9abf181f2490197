/**
 * The jobs queue's consumer: one message is one chunk. Every step is safe to repeat, so a consumer
 * killed mid-chunk, a message delivered twice or a failing write never loses or doubles a row:
 * the chunk's result is written to R2 under its own key (the same bytes each time), its rows are
 * charged once per chunk by the account object, and it is recorded once in D1 (job_chunks' key).
 * A message that fails is retried by the queue; a job whose input cannot be read fails, its rows
 * done kept and charged.
 */
import { chargeJobChunk } from "../account/jobs";
import { consistent } from "../data/run";
import { primaryDb } from "../db/client";
import { errorText, log } from "../lib/log";
import { WILAYAH_DATA } from "../wilayah/version";
import { answerValues, type RowAnswer } from "./answers";
import { readChunkPaced } from "./input";
import { putLinesPaced } from "./output";
import { FINAL_STATES, findJob, finishJob, recordChunk } from "./queries";
import { failJob, inputKey, type JobMessage, jobEnded, outKey, type ResultLine } from "./service";

export async function processChunk(env: Env, m: JobMessage): Promise<void> {
  const db = primaryDb(env);
  const job = await findJob(db, m.job);
  if (!job) return; // gone (past its days): nothing to do
  if (FINAL_STATES.includes(job.state)) {
    // Over: this chunk is not processed; the end's own steps are made sure of (they are idempotent).
    await jobEnded(env, job.id);
    return;
  }
  const object = await env.JOBS.get(inputKey(job.id), { range: { offset: m.offset, length: m.length } });
  if (!object) {
    await failJob(env, job.id, "The job's input file is gone.");
    return;
  }
  const bytes = new Uint8Array(await object.arrayBuffer());
  let rows: Awaited<ReturnType<typeof readChunkPaced>>;
  try {
    rows = await readChunkPaced(bytes, job.format, job.header ? (JSON.parse(job.header) as string[]) : null, job.column, m);
  } catch (e) {
    await failJob(env, job.id, e instanceof Error ? e.message : String(e));
    return;
  }
  // One version of the region data per chunk (read again if a seed swap came between its reads); a
  // job that straddles a seed says so (data_versions).
  // Each row's line is written as its answer comes (answerValues: in small groups, between pauses).
  const lines: string[] = new Array(rows.length);
  const line = (i: number, answer: RowAnswer) => {
    const r = rows[i] as (typeof rows)[number];
    lines[i] = JSON.stringify({ row: r.row, input: r.fields, answer } satisfies ResultLine);
  };
  const {
    value: { answers, warned },
    loaded,
  } = await consistent(WILAYAH_DATA, env, (reads) =>
    answerValues(
      reads,
      job.kind,
      rows.map((r) => r.value),
      job.codeSystem ?? "kemendagri",
      line,
    ),
  );
  // Empty values get no answer from a group: their lines (null) now.
  answers.forEach((a, i) => {
    if (lines[i] === undefined) line(i, a);
  });
  await putLinesPaced(env.JOBS, outKey(job.id, m.chunk), lines);
  const { charged } = await chargeJobChunk(env, job.userId, { jobId: job.id, chunk: m.chunk, rows: rows.length });
  if (!charged) return; // the job ended meanwhile: this chunk is not part of it
  const now = Date.now();
  const after = await recordChunk(db, { jobId: job.id, chunk: m.chunk, rows: rows.length, warned, at: now, dataVersion: loaded.version });
  if (after && after.chunksDone >= after.chunksTotal && (await finishJob(db, job.id, "done", now))) {
    log.info("job_done", { job_id: job.id, rows: after.rowsDone });
    await jobEnded(env, job.id);
  }
}

/** A batch of chunk messages: each acknowledged when processed, retried (by the queue, with a delay) when it failed. */
export async function consumeChunks(batch: MessageBatch<JobMessage>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    try {
      await processChunk(env, message.body);
      message.ack();
    } catch (e) {
      log.warn("job_chunk_failed", { job_id: message.body.job, chunk: message.body.chunk, attempt: message.attempts, error: errorText(e) });
      message.retry({ delaySeconds: Math.min(60, 2 ** message.attempts) });
    }
  }
}
